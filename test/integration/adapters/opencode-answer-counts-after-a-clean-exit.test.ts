// opencode prints no end line: its answer (the last message's text) is delivered once it has exited cleanly; the same
// output followed by a non-zero exit is a failure, not an answer. A stand-in `opencode` replays a recorded transcript.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createOpencodeAgent } from '../../../src/adapters/opencode/opencode-agent.js';
import { collect } from '../../helpers/agent-events.js';
import { tempDir } from '../../unit/persistence/tmp-dir.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/opencode/bash-then-answer.jsonl', import.meta.url));

async function fakeOpencode(exitCode: number) {
  const dir = await realpath(await tempDir());
  const out = path.join(dir, 'out.jsonl');
  writeFileSync(out, readFileSync(FIXTURE, 'utf8'));
  const binary = path.join(dir, 'opencode');
  writeFileSync(binary, `#!/bin/sh\ncat > /dev/null\ncat '${out}'\nexit ${exitCode}\n`);
  chmodSync(binary, 0o755);
  const agent = createOpencodeAgent({
    name: 'opencode',
    binary,
    debug: () => undefined,
    debugSource: 'planner/opencode',
  });
  const turn = {
    prompt: 'Do it',
    cwd: dir,
    access: 'workspace-write' as const,
    meta: { role: 'planner' as const, kind: 'execute_step' as const, iteration: 1, step: 1 },
  };
  return collect(agent.start(turn));
}

describe('opencode answer', () => {
  it('is delivered after opencode exits 0', async () => {
    const events = await fakeOpencode(0);
    expect(events.at(-1)).toEqual({ type: 'done', sessionId: 'ses_de69f1eb2ffe31f0Btqboz7F1P', text: 'done' });
  });

  it('is not delivered when opencode exits non-zero after the same output', async () => {
    const events = await fakeOpencode(3);
    expect(events.some((e) => e.type === 'done')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'error' });
  });
});
