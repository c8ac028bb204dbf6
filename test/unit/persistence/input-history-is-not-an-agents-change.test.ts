// The TUI saves the input history while an agent's turn runs (a message typed ahead goes to it at once). The turn's
// guard over agent-collab's files must not take that write for the agent's: the file is not among the guarded ones,
// while any other file next to it still is.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGuardedFiles } from '../../../src/adapters/git/guarded-files.js';
import { inputHistoryPath } from '../../../src/persistence/input-history.js';
import { tempDir } from './tmp-dir.js';

describe('the guard over agent-collab’s files during a turn', () => {
  it('leaves out input-history.json (agent-collab writes it then) and keeps a file beside it', async () => {
    const root = await tempDir();
    const workdir = path.join(root, '.agent-collab');
    await mkdir(workdir, { recursive: true });
    await writeFile(inputHistoryPath(workdir), '{"version":1,"entries":["hello"]}\n');
    await writeFile(path.join(workdir, 'notes.json'), '{}\n');
    const guarded = await readGuardedFiles(
      {
        workdir,
        configDir: workdir,
        state: path.join(workdir, 'state.json'),
        debugLog: path.join(workdir, 'debug.log'),
        runs: path.join(workdir, 'runs'),
        history: path.join(workdir, 'history'),
      },
      { config: path.join(root, '.git', 'config'), hooks: null },
    );
    expect([...guarded.keys()].map((p) => path.basename(p))).toEqual(['notes.json']);
  });
});
