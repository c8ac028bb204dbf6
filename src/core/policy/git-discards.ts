// git commands that throw away uncommitted work or history: `reset --hard`, `checkout -- .`, `restore .`,
// `clean -f`, `stash drop|clear`, `branch -D`, `update-ref`, `filter-branch`/`filter-repo`, `reflog expire`…
import { readGitArgs, type GitArgs, type GitCall } from './git.js';
import type { Match } from './match.js';

const has = (args: GitArgs, short: string[], long: string[]): boolean =>
  short.some((s) => args.short.has(s)) || long.some((l) => args.long.has(l));

/** Paths that name the whole tree or a part of it (`.`, `./src`, `:/`), as opposed to a branch name. */
const PATHLIKE = /^(\.|\.\/.*|:\/.*)$/;

function checks(git: GitCall): ((args: GitArgs) => boolean) | 'yes' | null {
  const op = (args: GitArgs) => args.operands[0]?.value;
  switch (git.sub) {
    case 'reset':
      return (a) => has(a, [], ['hard', 'merge']);
    case 'checkout':
      return (a) =>
        git.rest.some((x) => x.value === '--' && !x.dynamic) ||
        a.operands.some((x) => !x.dynamic && PATHLIKE.test(x.value)) ||
        has(a, ['f', 'B'], ['force', 'ours', 'theirs', 'merge']);
    case 'switch':
      return (a) => has(a, ['f', 'C'], ['force', 'discard-changes', 'force-create']);
    case 'restore':
      // Only `--staged` without `--worktree` leaves the files alone.
      return (a) => !(has(a, ['S'], ['staged']) && !has(a, ['W'], ['worktree']));
    case 'clean':
      return (a) => has(a, ['f'], ['force']) && !has(a, ['n'], ['dry-run']);
    case 'stash':
      return (a) => op(a) === 'drop' || op(a) === 'clear';
    case 'branch':
      return (a) =>
        has(a, ['D', 'M', 'C'], []) ||
        (has(a, ['d'], ['delete']) && has(a, ['f'], ['force'])) ||
        (has(a, ['f'], ['force']) && a.operands.length > 0);
    case 'reflog':
      return (a) => op(a) === 'expire' || op(a) === 'delete';
    case 'gc':
      return () => git.rest.some((x) => /^--prune=(now|all)$/.test(x.value));
    case 'worktree':
      return (a) => op(a) === 'remove' && has(a, ['f'], ['force']);
    case 'rm':
      return (a) => has(a, ['f'], ['force']);
    case 'update-ref':
    case 'filter-branch':
    case 'filter-repo':
    case 'prune':
      return 'yes';
    default:
      return null;
  }
}

const LONG = ['hard', 'merge', 'keep', 'soft', 'mixed', 'force', 'ours', 'theirs', 'discard-changes', 'force-create'];
const WITH_VALUE = ['-b', '-B', '-c', '-C', '--orphan', '-s', '--source', '-e', '--exclude', '-m', '--message'];

export function discardsWork(git: GitCall): Match {
  if (git.unknown) return 'maybe';
  const check = checks(git);
  if (check === null) return 'no';
  if (check === 'yes') return 'yes';
  const args = readGitArgs(git.rest, WITH_VALUE, [...LONG, 'staged', 'worktree', 'delete', 'dry-run']);
  if (check(args)) return 'yes';
  // `git reset $MODE`, `git checkout "$X"`: a computed word could be the option or path that discards.
  return args.computed ? 'maybe' : 'no';
}
