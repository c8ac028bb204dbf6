// `clean` removes a finished run's worktree with everything in it that git does not track. What the person put there
// after the run ended must not go with it unasked: an ignored file written since (a hand-made `.env`), or an
// instruction waiting in the worktree's own inbox. Ignored files the run itself left (node_modules, build output)
// do not keep it: they are as old as the run.
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunWorktree, runWorktreesDir } from '../../../src/adapters/git/run-worktree.js';
import { runClean } from '../../../src/modes/worktrees.js';
import { newState } from '../../../src/persistence/state-store.js';
import { tempRepo } from '../../helpers/repo.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const ENDED = new Date('2026-01-01T12:00:00Z');

/** A run worktree whose run ended DONE at ENDED, with `build/out.js` (ignored) written by the run before. */
async function finishedWorktree(repoDir: string, name: string): Promise<string> {
  const wt = await createRunWorktree({ repoRoot: repoDir, name });
  const state = { ...newState({ runId: `r-${name}`, goal: 'g', mode: 'auto', maxIterations: 5, now: ENDED }) };
  state.phase = 'DONE';
  writeFileSync(path.join(wt.path, '.agent-collab', 'state.json'), JSON.stringify(state));
  mkdirSync(path.join(wt.path, 'build'));
  writeFileSync(path.join(wt.path, 'build', 'out.js'), 'built\n');
  const before = new Date(ENDED.getTime() - 60_000);
  utimesSync(path.join(wt.path, 'build', 'out.js'), before, before);
  utimesSync(path.join(wt.path, 'build'), before, before);
  return wt.path;
}

function sink(): Writable & { text: () => string } {
  const chunks: string[] = [];
  const w = new Writable({ write: (c, _e, done) => (chunks.push(String(c)), done()) });
  return Object.assign(w, { text: () => chunks.join('') });
}

describe('agent-collab clean and what the person left in a finished worktree', () => {
  it('keeps a worktree with an ignored file written after its run ended, or an instruction in its inbox', async () => {
    const repo = tempRepo();
    cleanups.push(repo.cleanup, () => rmSync(runWorktreesDir(repo.dir), { recursive: true, force: true }));
    writeFileSync(path.join(repo.dir, '.gitignore'), '.env\nbuild/\n');
    const { execFileSync } = await import('node:child_process');
    execFileSync('git', ['add', '.gitignore'], { cwd: repo.dir });
    execFileSync('git', ['commit', '-qm', 'ignore'], { cwd: repo.dir });

    const withEnv = await finishedWorktree(repo.dir, 'with-env');
    writeFileSync(path.join(withEnv, '.env'), 'DB_URL=postgres://me@localhost/db\n');
    const withInbox = await finishedWorktree(repo.dir, 'with-inbox');
    mkdirSync(path.join(withInbox, '.agent-collab', 'inbox'), { recursive: true });
    writeFileSync(path.join(withInbox, '.agent-collab', 'inbox', 'next.md'), '---\n---\n\nrefactor next\n');
    const plain = await finishedWorktree(repo.dir, 'plain');

    const out = sink();
    expect(await runClean({ cwd: repo.dir, yes: true, stdout: out })).toBe(0);
    expect(existsSync(path.join(withEnv, '.env'))).toBe(true);
    expect(existsSync(path.join(withInbox, '.agent-collab', 'inbox', 'next.md'))).toBe(true);
    expect(existsSync(plain)).toBe(false);
    expect(out.text()).toMatch(/keeping with-env .*\.env/);
    expect(out.text()).toMatch(/keeping with-inbox .*next\.md/);
  }, 30_000);

  it('keeps the reports of the earlier runs archived in the worktree, not only of its last run', async () => {
    const repo = tempRepo();
    cleanups.push(repo.cleanup, () => rmSync(runWorktreesDir(repo.dir), { recursive: true, force: true }));
    const wt = await createRunWorktree({ repoRoot: repo.dir, name: 'two-runs' });
    const state = newState({ runId: 'r-last', goal: 'g', mode: 'auto', maxIterations: 5, now: ENDED });
    state.phase = 'DONE';
    const work = path.join(wt.path, '.agent-collab');
    writeFileSync(path.join(work, 'state.json'), JSON.stringify(state));
    mkdirSync(path.join(work, 'runs', 'r-last'), { recursive: true });
    writeFileSync(path.join(work, 'runs', 'r-last', 'report.md'), 'last run\n');
    const earlier = path.join(work, 'history', '2026-01-01-first', 'runs', 'r-first');
    mkdirSync(earlier, { recursive: true });
    writeFileSync(path.join(earlier, 'report.md'), 'first run\n');

    expect(await runClean({ cwd: repo.dir, yes: true, stdout: sink() })).toBe(0);
    expect(existsSync(wt.path)).toBe(false);
    const kept = path.join(repo.dir, '.agent-collab', 'worktree-runs', 'two-runs');
    expect(readFileSync(path.join(kept, 'r-last', 'report.md'), 'utf8')).toBe('last run\n');
    expect(readFileSync(path.join(kept, 'r-first', 'report.md'), 'utf8')).toBe('first run\n');
  }, 30_000);
});
