import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/persistence/config-schema.js';
import { archiveRun, slugify } from '../../../src/persistence/history.js';
import { resolvePaths } from '../../../src/persistence/paths.js';
import { tempDir } from './tmp-dir.js';

describe('slugify', () => {
  it.each([
    ['Add a --json flag to the CLI!', 'add-a-json-flag-to-the-cli'],
    ['Café déjà vu', 'cafe-deja-vu'],
    ['给 CLI 加一个参数', 'cli'],
    ['重构', 'run'],
    ['', 'run'],
    ['one two three four five six seven eight nine ten', 'one-two-three-four-five-six-seven-eight'],
    ['x'.repeat(60), 'x'.repeat(40)],
  ])('%j → %s', (goal, slug) => {
    expect(slugify(goal)).toBe(slug);
    expect(slugify(goal).length).toBeLessThanOrEqual(40);
  });
});

describe('archiveRun', () => {
  it('moves the run files into history/<date>-<slug>/ and leaves the rest', async () => {
    const repo = await tempDir();
    const paths = resolvePaths(repo, configSchema.parse({}));
    await mkdir(path.join(paths.runs, 'r1'), { recursive: true });
    await mkdir(paths.promptsOverride, { recursive: true });
    for (const f of [
      paths.state,
      paths.plan,
      paths.comments,
      paths.ledger,
      paths.log,
      paths.debugLog,
      paths.configFile,
    ])
      await writeFile(f, path.basename(f));
    await writeFile(path.join(paths.runs, 'r1', 'turn.txt'), 'raw');

    const date = new Date(2026, 1, 5, 23, 59);
    const dir = await archiveRun(paths, { goal: 'Add JSON output', date });
    expect(dir).toBe(path.join(paths.history, '2026-02-05-add-json-output'));
    expect((await readdir(dir)).sort()).toEqual([
      'comments.md',
      'ledger.md',
      'log.md',
      'plan.md',
      'runs',
      'state.json',
    ]);
    expect(await readFile(path.join(dir, 'runs', 'r1', 'turn.txt'), 'utf8')).toBe('raw');
    expect((await readdir(paths.workdir)).sort()).toEqual(['config.toml', 'debug.log', 'history', 'prompts']);
  });

  it('adds -2, -3 when the directory exists and copes with missing files', async () => {
    const paths = resolvePaths(await tempDir(), configSchema.parse({}));
    const date = new Date(2026, 1, 5);
    await mkdir(paths.workdir, { recursive: true });
    const dirs: string[] = [];
    for (let i = 0; i < 3; i++) {
      await writeFile(paths.plan, `plan ${i}`);
      dirs.push(await archiveRun(paths, { goal: '重构', date }));
    }
    expect(dirs.map((d) => path.basename(d))).toEqual(['2026-02-05-run', '2026-02-05-run-2', '2026-02-05-run-3']);
    expect(await readFile(path.join(dirs[2] ?? '', 'plan.md'), 'utf8')).toBe('plan 2');
    expect(await readdir(dirs[0] ?? '')).toEqual(['plan.md']);
  });
});
