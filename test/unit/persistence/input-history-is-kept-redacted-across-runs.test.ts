// Issue 20 (Goal input habit): the goals and messages sent are kept across runs in the person's state dir, one file
// per repository, for ↑ in a text box — bounded, written whole (atomically), and redacted: a pasted secret never lands
// on disk. Out of the repo: an agent cannot plant entries there, nor swap the file for a link written through.
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
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

/** The history file of a repository for a person whose home is `home` (no XDG_STATE_HOME). */
const historyIn = (home: string, repo = '/work/repo'): string => inputHistoryPath(repo, home, {});

describe('the input history file', () => {
  it('is in the state dir ($XDG_STATE_HOME, else ~/.local/state), one file per repository, never in the repo', async () => {
    const home = await tempDir();
    const file = historyIn(home);
    expect(file.startsWith(path.join(home, '.local', 'state', 'agent-collab', 'input-history') + path.sep)).toBe(true);
    expect(historyIn(home, '/work/other')).not.toBe(file);
    expect(inputHistoryPath('/work/repo', home, { XDG_STATE_HOME: '/xdg/state' })).toMatch(
      /^\/xdg\/state\/agent-collab\/input-history\/[0-9a-f]{16}\.json$/,
    );
    expect(file.startsWith('/work/repo')).toBe(false);
  });

  it('a link in the file’s place is not written through: what it points to stays as it was', async () => {
    const home = await tempDir();
    const file = historyIn(home);
    await mkdir(path.dirname(file), { recursive: true });
    const victim = path.join(home, 'victim.txt');
    await writeFile(victim, 'the person’s own file\n');
    await symlink(victim, file);
    await expect(saveInputHistory(file, ['a goal'], redactor)).rejects.toThrow(/not a regular file/);
    expect(await readFile(victim, 'utf8')).toBe('the person’s own file\n');
    expect(await readInputHistory(file, redactor, INPUT_HISTORY_MAX)).toEqual([]);
  });

  it('holds what was sent, newest first, redacted, and the next run reads it back', async () => {
    const file = historyIn(await tempDir());
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
    expect(await readdir(path.dirname(file))).toEqual([path.basename(file)]);
  });

  it('keeps at most 200 entries', async () => {
    const file = historyIn(await tempDir());
    const { h, settled } = diskHistory(file, []);
    for (let i = 0; i < 205; i++) h.add(`message ${i}`);
    await settled();
    const back = await readInputHistory(file, redactor, INPUT_HISTORY_MAX);
    expect(back).toHaveLength(200);
    expect(back[0]).toBe('message 204');
    expect(back.at(-1)).toBe('message 5');
  });

  it('a missing, corrupt or foreign file is an empty history, not an error; a secret in it is read back redacted', async () => {
    const file = historyIn(await tempDir());
    expect(await readInputHistory(file, redactor, 200)).toEqual([]);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '{ not json');
    expect(await readInputHistory(file, redactor, 200)).toEqual([]);
    await writeFile(file, JSON.stringify({ entries: [1, '', 'ok', `token ${GH}`] }));
    expect(await readInputHistory(file, redactor, 200)).toEqual(['ok', 'token [REDACTED:github-token]']);
  });
});
