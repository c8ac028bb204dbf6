// Secrets an agent or the test command prints never reach what agent-collab writes or prints (debug.log, runs/,
// log.md, state.json, NDJSON and text output), and a step whose Summary holds a key is held and never committed
// with it; the repo's own files keep their bytes. Fake agents, real files, real git.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../src/adapters/fake/script.js';
import { parseDecision } from '../../src/modes/decisions.js';
import { runHeadless, type HeadlessOptions } from '../../src/modes/headless.js';
import { gitLog, sink, tempRepo } from '../helpers/repo.js';

// Fake but valid-looking secrets, built from pieces so this file holds none.
const GH = `ghp_${'k3Jd9Qw2Lm'.repeat(3)}Zx81Pq`;
const GH_IN_SUMMARY = `gho_${'p0O9i8U7y6'.repeat(3)}T5r4E3`;
const AWS_ID = `AKIA${'Q3ZL7WXN4RT2MB6K'}`;
const ANTHROPIC = `sk-ant-api03-${'Zq9Xw8Vu7Ts6Rq5P'.repeat(2)}`;
const SLACK = `xoxb-${'123456789012'}-${'abcDEF123ghi'}`;
const ENV_VALUE = `q8Zr2${'Lw5Tn0Vx'}`;
const SECRETS = [GH, GH_IN_SUMMARY, AWS_ID, ANTHROPIC, SLACK, ENV_VALUE];
const KEYS_FILE = `# service config\ntoken = "${GH}"\n`;

const approve: FakeScript = { rules: [{ do: { verdict: 'APPROVED', text: '## Comments\n1. Fine.' } }] };

function planner(): FakeAgent {
  return new FakeAgent('planner', {
    rules: [
      { when: { kind: 'write_plan' }, do: { text: '## Steps\n1. [ ] Add the config\n2. [ ] Add b.txt\n' } },
      {
        when: { step: 1 },
        do: {
          writeFiles: { 'config/keys.txt': KEYS_FILE },
          text: `Saved ${GH} and ${AWS_ID}; the key is ${ANTHROPIC}; $MY_SERVICE_TOKEN is ${ENV_VALUE}\nSummary: add the config`,
        },
      },
      { when: { step: 2 }, do: { writeFiles: { 'b.txt': 'b\n' }, text: `Done.\nSummary: rotate ${GH_IN_SUMMARY}` } },
    ],
  });
}

/** All files under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  delete process.env.MY_SERVICE_TOKEN;
});

// Three headless runs with tests and commits each: more than the default timeout on a busy machine.
describe('secrets', { timeout: 120_000 }, () => {
  it('no secret reaches debug.log, runs/, log.md, state.json or the output; the committed key file keeps its bytes', async () => {
    process.env.MY_SERVICE_TOKEN = ENV_VALUE; // read once when the session opens
    const repo = tempRepo();
    cleanup = repo.cleanup;
    writeFileSync(
      path.join(repo.dir, 'package.json'),
      JSON.stringify({ name: 'x', private: true, scripts: { test: 'node check.js' } }),
    );
    // The test command prints an AWS key (assembled at run time) and a private key block.
    writeFileSync(
      path.join(repo.dir, 'check.js'),
      `console.log('using ' + 'AKIA' + 'Q3ZL7WXN4RT2MB6K');\nconsole.log(['-----BEGIN RSA ' + 'PRIVATE KEY-----', 'MIIEowIBAAKCAQEA7bq9Zx2Lm4Qw8Rt1Yc3Vb6Nh0Jk5Gf', '-----END RSA ' + 'PRIVATE KEY-----'].join('\\n'));\nconsole.log('all good');\n`,
    );
    execFileSync('git', ['add', '-A'], { cwd: repo.dir });
    execFileSync('git', ['commit', '-q', '-m', 'tests'], { cwd: repo.dir });

    const agents = { planner: planner(), reviewer: new FakeAgent('reviewer', approve) };
    const outputs: string[] = [];
    const run = async (extra: Partial<HeadlessOptions>) => {
      const out = sink();
      const err = sink();
      const code = await runHeadless({
        cwd: repo.dir,
        homeDir: repo.home,
        auto: true,
        autoApprove: true,
        json: true,
        resume: 'resume',
        agents,
        stdout: out,
        stderr: err,
        ...extra,
      });
      outputs.push(out.text(), err.text());
      return { code, out };
    };

    // 1: the person's goal holds a token too; the step's file holds a key: the commit is held.
    const first = await run({ goal: `add the config; the Slack bot token is ${SLACK}` });
    expect(first.code).toBe(3);
    expect(first.out.lines().find((e) => e.event === 'needs_human')).toMatchObject({ kind: 'secret_found', step: 1 });

    // 2 (text output): the person commits anyway; step 2's Summary holds a key: held again, for the message.
    const second = await run({ json: false, decision: parseDecision('commit-anyway') });
    expect(second.code).toBe(3);
    const work = path.join(repo.dir, '.agent-collab');
    const held = JSON.parse(readFileSync(path.join(work, 'state.json'), 'utf8')) as {
      awaiting: { kind: string; summary: string; findings: unknown[] };
    };
    expect(held.awaiting).toMatchObject({
      kind: 'secret_found',
      summary: 'rotate [REDACTED:github-token]',
      findings: [{ file: '(commit message)', line: 1, kind: 'GitHub token' }],
    });
    expect(gitLog(repo.dir).slice(0, 2)).toEqual(['[Step 1] add the config', 'tests']);

    // 3: committed anyway: the subject says [REDACTED:…], never the key.
    const third = await run({ decision: parseDecision('commit-anyway') });
    expect(third.code).toBe(0);
    expect(gitLog(repo.dir).slice(0, 2)).toEqual([
      '[Step 2] rotate [REDACTED:github-token]',
      '[Step 1] add the config',
    ]);
    const fullLog = execFileSync('git', ['log', '--format=%B'], { cwd: repo.dir, encoding: 'utf8' });
    expect(fullLog).not.toContain(GH_IN_SUMMARY);

    // The repo's file is never altered: committed and on disk byte for byte as the agent wrote it.
    const committed = execFileSync('git', ['show', 'HEAD~1:config/keys.txt'], { cwd: repo.dir });
    expect(committed.equals(Buffer.from(KEYS_FILE))).toBe(true);
    expect(readFileSync(path.join(repo.dir, 'config/keys.txt')).equals(Buffer.from(KEYS_FILE))).toBe(true);

    // Nothing agent-collab wrote or printed holds a secret; each sink shows where one was.
    const written = filesUnder(work).map((f) => ({ f: path.relative(work, f), text: readFileSync(f, 'utf8') }));
    for (const { f, text } of [...written, ...outputs.map((text, i) => ({ f: `output ${i}`, text }))]) {
      for (const secret of SECRETS) expect(text.includes(secret), `${secret} in ${f}`).toBe(false);
      expect(text.includes('MIIEowIBAAKCAQEA7bq9'), `private key body in ${f}`).toBe(false);
    }
    const textOf = (name: string): string =>
      written
        .filter((w) => w.f.startsWith(name))
        .map((w) => w.text)
        .join('\n');
    expect(textOf('debug.log')).toContain(`[REDACTED:github-token]`);
    expect(textOf('debug.log')).toContain(`[REDACTED:anthropic-key]`);
    expect(textOf('debug.log')).toContain(`[REDACTED:MY_SERVICE_TOKEN]`);
    expect(textOf('runs/')).toContain('[REDACTED:aws-access-key]');
    expect(textOf('runs/')).toContain('[REDACTED:private-key]');
    expect(textOf('runs/')).toContain('[REDACTED:MY_SERVICE_TOKEN]');
    expect(textOf('log.md')).toContain('[REDACTED:slack-token]'); // the goal
    expect(textOf('state.json')).toContain('[REDACTED:slack-token]');
    expect(outputs[0]).toContain('[REDACTED:MY_SERVICE_TOKEN]'); // NDJSON
    expect(outputs[2]).toContain('[REDACTED:github-token]'); // text output
  });

  it('a key inside a file git treats as binary holds the commit; the file is left as it is', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    const blob = `\u0000\u0001PK\u0003\u0004${AWS_ID}\u0000\u0007`;
    const agent = new FakeAgent('planner', {
      rules: [
        { when: { kind: 'write_plan' }, do: { text: '## Steps\n1. [ ] Add the archive\n' } },
        { when: { step: 1 }, do: { writeFiles: { 'assets/data.bin': blob }, text: 'Summary: add the archive' } },
      ],
    });
    const out = sink();
    const code = await runHeadless({
      cwd: repo.dir,
      homeDir: repo.home,
      goal: 'archive',
      auto: true,
      autoApprove: true,
      json: true,
      resume: 'ask',
      agents: { planner: agent, reviewer: new FakeAgent('reviewer', approve) },
      stdout: out,
      stderr: sink(),
    });
    expect(code).toBe(3);
    // git sees a binary file (numstat "-  -"): its patch shows no lines, only its bytes hold the key.
    const numstat = spawnSync('git', ['diff', '--no-index', '--numstat', '/dev/null', 'assets/data.bin'], {
      cwd: repo.dir,
      encoding: 'utf8',
    });
    expect(numstat.stdout).toMatch(/^-\t-\t/);
    expect(out.lines().find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'secret_found',
      findings: [{ file: 'assets/data.bin', line: 0, kind: 'AWS access key' }],
    });
    expect(gitLog(repo.dir)[0]).toBe('initial');
    expect(readFileSync(path.join(repo.dir, 'assets/data.bin'), 'utf8')).toBe(blob);
  });
});
