// Issue 20 (Goal input habit): the goals and messages sent are kept across runs in `.agent-collab/input-history.json`
// for ↑ in a text box — bounded, written whole (atomically), and redacted: a pasted secret never lands on disk.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/core/redact.js';
import { inputHistoryPath, readInputHistory, saveInputHistory } from '../../../src/persistence/input-history.js';
import { inputHistory, INPUT_HISTORY_MAX } from '../../../src/ui/input-history.js';
import { tempDir } from './tmp-dir.js';

const GH = `ghp_${'k3Jd9Qw2Lm'.repeat(3)}Zx81Pq`;
const ENV_VALUE = `q8Zr2${'Lw5Tn0Vx'}`;
const redactor = createRedactor([{ name: 'MY_SERVICE_TOKEN', value: ENV_VALUE }]);

/** A history saved to `file` as the TUI does, and a wait for its writes. */
function diskHistory(file: string, initial: readonly string[]) {
  const writes: Array<Promise<void>> = [];
  const h = inputHistory(initial, {
    redact: (t) => redactor.text(t),
    save: (entries) => void writes.push(saveInputHistory(file, entries, redactor)),
  });
  return { h, settled: () => Promise.all(writes) };
}

describe('the input history file', () => {
  it('holds what was sent, newest first, redacted, and the next run reads it back', async () => {
    const dir = await tempDir();
    const file = inputHistoryPath(dir);
    const { h, settled } = diskHistory(file, []);
    h.add('add a greeting module');
    h.add(`deploy with ${GH}\nand MY_SERVICE_TOKEN=${ENV_VALUE}`);
    await settled();
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(GH);
    expect(text).not.toContain(ENV_VALUE);
    const next = await readInputHistory(file, redactor, INPUT_HISTORY_MAX);
    expect(next).toEqual([
      'deploy with [REDACTED:github-token]\nand MY_SERVICE_TOKEN=[REDACTED:MY_SERVICE_TOKEN]',
      'add a greeting module',
    ]);
    // No temp file of the atomic write is left behind.
    expect(await readdir(dir)).toEqual(['input-history.json']);
  });

  it('keeps at most 200 entries', async () => {
    const file = inputHistoryPath(await tempDir());
    const { h, settled } = diskHistory(file, []);
    for (let i = 0; i < 205; i++) h.add(`message ${i}`);
    await settled();
    const back = await readInputHistory(file, redactor, INPUT_HISTORY_MAX);
    expect(back).toHaveLength(200);
    expect(back[0]).toBe('message 204');
    expect(back.at(-1)).toBe('message 5');
  });

  it('a missing, corrupt or foreign file is an empty history, not an error; a secret in it is read back redacted', async () => {
    const dir = await tempDir();
    const file = inputHistoryPath(dir);
    expect(await readInputHistory(file, redactor, 200)).toEqual([]);
    await writeFile(file, '{ not json');
    expect(await readInputHistory(file, redactor, 200)).toEqual([]);
    await writeFile(file, JSON.stringify({ entries: [1, '', 'ok', `token ${GH}`] }));
    expect(await readInputHistory(file, redactor, 200)).toEqual(['ok', 'token [REDACTED:github-token]']);
  });
});
