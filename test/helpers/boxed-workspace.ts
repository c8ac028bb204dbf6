// The step workspace as a session builds it (src/modes/session.ts): GitRepoState over the repo's `.agent-collab/`
// paths, and the step commit run boxed (BoxedCommit). Shared by the tests of what a boxed commit's hooks and an
// agent's turn can and cannot do to the repository.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { agentConfinement } from '../../src/adapters/confinement/index.js';
import { BoxedCommit } from '../../src/adapters/git/boxed-commit.js';
import { GitRepoState } from '../../src/adapters/git/repo-state.js';
import { GitStepWorkspace } from '../../src/adapters/git/step-workspace.js';
import { configSchema } from '../../src/persistence/config-schema.js';
import { resolvePaths } from '../../src/persistence/paths.js';

/** GitRepoState over the default `.agent-collab/` paths of the repo at `repoDir`. */
export function repoStateOf(repoDir: string): GitRepoState {
  const paths = resolvePaths(repoDir, configSchema.parse({}));
  return new GitRepoState({ ...paths, configDir: path.dirname(paths.configFile) });
}

/** A step workspace whose commits run in the box; `.agent-collab/` is made if missing. */
export function boxedWorkspace(repoDir: string): { work: string; state: GitRepoState; ws: GitStepWorkspace } {
  const work = path.join(repoDir, '.agent-collab');
  mkdirSync(work, { recursive: true });
  const state = repoStateOf(repoDir);
  const box = new BoxedCommit(agentConfinement(work), state, path.join(work, 'backups'));
  return { work, state, ws: new GitStepWorkspace(repoDir, '.agent-collab', {}, [], box.run) };
}

/** Installs an executable `.git/hooks/pre-commit` with `script`. */
export function preCommitHook(repoDir: string, script: string): void {
  const hook = path.join(repoDir, '.git', 'hooks', 'pre-commit');
  writeFileSync(hook, script);
  chmodSync(hook, 0o755);
}

/** Adds a submodule `sub` (its source repo made in `home`) and commits it. */
export function addSubmodule(repo: { dir: string; home: string }): void {
  const g = (dir: string, ...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const src = path.join(repo.home, 'sub-src');
  mkdirSync(src);
  g(src, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(src, 's.txt'), 's\n');
  g(src, 'add', '.');
  g(src, '-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 's');
  g(repo.dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', src, 'sub');
  g(repo.dir, 'commit', '-qm', 'sub');
}
