// The input history lives in the person's state dir, not in .agent-collab/: a file of that name an agent writes
// into .agent-collab/ during its turn is guarded like any other (a hostile review found the old exemption let an
// agent plant "earlier goals" or a link that agent-collab would write through).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGuardedFiles } from '../../../src/adapters/git/guarded-files.js';
import { inputHistoryPath } from '../../../src/persistence/input-history.js';
import { tempDir } from './tmp-dir.js';

describe('the guard over agent-collab’s files during a turn', () => {
  it('guards an input-history.json in .agent-collab/ like the file beside it', async () => {
    const root = await tempDir();
    const workdir = path.join(root, '.agent-collab');
    await mkdir(workdir, { recursive: true });
    await writeFile(path.join(workdir, 'input-history.json'), '{"version":1,"entries":["hello"]}\n');
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
    expect([...guarded.keys()].map((p) => path.basename(p)).sort()).toEqual(['input-history.json', 'notes.json']);
    expect(inputHistoryPath(root, root, {}).startsWith(workdir)).toBe(false);
  });
});
