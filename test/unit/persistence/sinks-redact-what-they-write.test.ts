// Each sink redacts on its own (state.json, debug.log, log.md, runs/): what lands on disk holds no secret, keeps
// its structure, and keeps verbatim what agent-collab reads back.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/core/redact.js';
import { RunArtifacts } from '../../../src/persistence/artifacts.js';
import { DebugLog } from '../../../src/persistence/debug-log.js';
import { appendLog } from '../../../src/persistence/log-file.js';
import { newState, readState, writeState } from '../../../src/persistence/state-store.js';
import { tempDir } from './tmp-dir.js';

const GH = `ghp_${'k3Jd9Qw2Lm'.repeat(3)}Zx81Pq`;
const ENV_VALUE = `q8Zr2${'Lw5Tn0Vx'}`;
const KEY_BODY = 'MIIEowIBAAKCAQEA7bq9Zx2Lm4Qw8Rt1Yc3Vb6Nh0Jk5Gf';
const redactor = createRedactor([{ name: 'MY_SERVICE_TOKEN', value: ENV_VALUE }]);

describe('state.json', () => {
  it('is written with its strings redacted, reads back as a valid state, ids and the test command verbatim', async () => {
    const file = path.join(await tempDir(), 'state.json');
    const state = {
      ...newState({ runId: 'r1', goal: `deploy with ${GH}`, mode: 'auto', maxIterations: 3 }),
      sessions: { planner: 'sess-1', reviewer: null },
      testCommand: `API_TOKEN=${ENV_VALUE} npm test`,
      allowedCommands: [`curl -H "Authorization: token ${GH}" https://api.github.com`],
    };
    await writeState({ state: file }, state, redactor);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(GH);
    const back = await readState({ state: file });
    expect(back.kind).toBe('ok');
    if (back.kind !== 'ok') return;
    expect(back.state.goal).toBe('deploy with [REDACTED:github-token]');
    expect(back.state.allowedCommands).toEqual([
      'curl -H "Authorization: token [REDACTED:github-token]" https://api.github.com',
    ]);
    expect(back.state.sessions).toEqual({ planner: 'sess-1', reviewer: null });
    expect(back.state.runId).toBe('r1');
    // Needed verbatim to run the tests after a resume (documented).
    expect(back.state.testCommand).toBe(state.testCommand);
  });
});

describe('debug.log', () => {
  it("hides tokens, known values and a private key's body lines written line by line, per source", async () => {
    const file = path.join(await tempDir(), 'debug.log');
    const log = new DebugLog(file, 1024 * 1024, 3, redactor);
    log.write('tests', `-----BEGIN RSA ${'PRIVATE'} KEY-----`);
    log.write('planner', `{"type":"text","text":"token ${GH}"}`); // another source in between
    log.write('tests', KEY_BODY);
    log.write('tests', `-----END RSA ${'PRIVATE'} KEY-----`);
    log.write('tests', `env ${ENV_VALUE}\nok`);
    await log.flush();
    const text = await readFile(file, 'utf8');
    for (const s of [GH, ENV_VALUE, KEY_BODY]) expect(text).not.toContain(s);
    const planner = text.split('\n').find((l) => l.includes('[planner]')) ?? '';
    expect(JSON.parse(planner.slice(planner.indexOf('{')))).toEqual({
      type: 'text',
      text: 'token [REDACTED:github-token]',
    });
    expect(text).toContain('[tests] env [REDACTED:MY_SERVICE_TOKEN]');
    expect(text).toContain('[tests] ok');
  });
});

describe('log.md and runs/', () => {
  it('log.md entries are redacted', async () => {
    const file = path.join(await tempDir(), 'log.md');
    await appendLog(file, { title: `Goal ${GH}`, lines: [`answer ${ENV_VALUE}`] }, redactor.text);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('Goal [REDACTED:github-token]');
    expect(text).toContain('answer [REDACTED:MY_SERVICE_TOKEN]');
  });

  it('artifacts, events and the timeline are redacted; events.jsonl stays one JSON object per line', async () => {
    const dir = await tempDir();
    const artifacts = new RunArtifacts(dir, 'run1', () => undefined, redactor);
    await artifacts.write(1, 1, 'patch.diff', `+token = "${GH}"\n`);
    artifacts.appendEvent(1, 1, { type: 'command', command: `echo ${ENV_VALUE}`, output: `${GH}\n` });
    await artifacts.timeline(`step 1 said ${GH}`);
    await artifacts.flush();
    const attempt = path.join(dir, 'run1', 'step-1', 'attempt-1');
    expect((await readdir(attempt)).sort()).toEqual(['events.jsonl', 'patch.diff']);
    expect(await readFile(path.join(attempt, 'patch.diff'), 'utf8')).toBe('+token = "[REDACTED:github-token]"\n');
    const events = (await readFile(path.join(attempt, 'events.jsonl'), 'utf8')).trim().split('\n');
    expect(events.map((l) => JSON.parse(l) as unknown)).toEqual([
      { type: 'command', command: 'echo [REDACTED:MY_SERVICE_TOKEN]', output: '[REDACTED:github-token]\n' },
    ]);
    expect(await readFile(path.join(dir, 'run1', 'timeline.md'), 'utf8')).toContain(
      'step 1 said [REDACTED:github-token]',
    );
  });
});
