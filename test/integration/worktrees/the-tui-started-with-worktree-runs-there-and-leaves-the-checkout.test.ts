// `agent-collab --worktree [name]` (the built CLI in a real terminal, tmux, on the fake agents): the TUI's run goes
// in the new worktree on branch `agent-collab/<name>` — its state and lock there — while the person's checkout
// (HEAD, branch, files, its `.agent-collab/`) stays as it was.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempRepoWithFakeScript } from '../../helpers/repo.js';
import { cliCommand, hasTmux, TmuxPane } from '../../helpers/tmux.js';

const pane = new TmuxPane('tui-worktree');
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
/** The checkout's changes but its `.agent-collab/` (which the worktree's start adds to the shared git exclude). */
const changes = (dir: string): string =>
  git(dir, 'status', '--porcelain', '--untracked-files=all', '--', ':!.agent-collab');

describe.skipIf(!hasTmux)('the TUI started with --worktree', () => {
  let repo: ReturnType<typeof tempRepoWithFakeScript>;

  beforeAll(() => {
    repo = tempRepoWithFakeScript({ rules: [] });
    pane.open(repo.dir, 100, 30);
  });

  afterAll(() => {
    pane.close();
    repo?.cleanup();
    if (repo) rmSync(`${repo.dir}-agent-collab`, { recursive: true, force: true });
  });

  it("runs in the new worktree on its own branch, and the person's checkout is untouched", async () => {
    const head = git(repo.dir, 'rev-parse', 'HEAD');
    const status = changes(repo.dir);
    const ownWorkdir = readdirSync(path.join(repo.dir, '.agent-collab')).sort();
    const wt = path.join(`${realpathSync(repo.dir)}-agent-collab`, 'feat-x');

    await pane.prompt();
    pane.type(`${cliCommand(repo.home, 'EDITOR=true')} --worktree feat-x; echo "exit code $?"`);
    pane.keys('Enter');
    await pane.shows('waiting for your goal');
    pane.type('Add a greeting module');
    await pane.shows('goal › Add a greeting module');
    pane.keys('Enter');
    await pane.shows('## Refined goal');

    // The run is the worktree's: its state there names the goal, on the new branch.
    expect(git(wt, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('agent-collab/feat-x');
    expect(git(wt, 'rev-parse', 'HEAD')).toBe(head);
    pane.keys('C-c');
    await pane.shows('exit code 130');
    const state = JSON.parse(readFileSync(path.join(wt, '.agent-collab', 'state.json'), 'utf8')) as { goal?: string };
    expect(state.goal, pane.dump()).toContain('Add a greeting module');

    // The person's checkout: same HEAD and branch, same files, and no run, lock or log in its .agent-collab/.
    expect(git(repo.dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(repo.dir, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(changes(repo.dir)).toBe(status);
    expect(readdirSync(path.join(repo.dir, '.agent-collab')).sort()).toEqual(ownWorkdir);
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'state.json'))).toBe(false);
  }, 60_000);
});
