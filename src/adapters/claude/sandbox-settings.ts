// claude's own confinement for a write turn: its bubblewrap sandbox around every Bash command, and permission rules
// that keep its file tools (Write, Edit, NotebookEdit) out of `.git/` and `.agent-collab/`. Measured on 2.1.197 with
// a scripted model: see docs/confinement.md.
import { gitDirsOf, type ConfinedTurn } from '../confinement/index.js';
import path from 'node:path';

/** Dirs inside (or of) the repo that a write turn must not change: the git dirs and agent-collab's work dir. */
function protectedDirs(confined: ConfinedTurn): string[] {
  const dirs = [...gitDirsOf(confined.repo), path.resolve(confined.repo, confined.workdir)];
  return dirs.filter((d, i) => dirs.indexOf(d) === i);
}

/**
 * The `sandbox` settings: Bash runs under bubblewrap; if the sandbox cannot start claude fails instead of running
 * commands unconfined; no command may ask to run outside it. `denyWrite` needs ABSOLUTE paths (a relative
 * `./.git` did not protect .git; measured). Commands still need the hook's allow (not auto-allowed by the sandbox),
 * so the fail-closed hook setup stays: a command the hook approved runs inside the sandbox (measured).
 */
export function claudeSandbox(confined: ConfinedTurn): Record<string, unknown> {
  return {
    enabled: true,
    failIfUnavailable: true,
    allowUnsandboxedCommands: false,
    autoAllowBashIfSandboxed: false,
    // claude runs inside agent-collab's box, whose /proc a nested bubblewrap cannot mount again ("Can't mount proc on
    // /newroot/proc"): this mode binds the box's /proc instead. Measured on 2.1.197 as root: a command then runs with
    // no capabilities, cannot remount, and /proc/<claude pid>/root is "Permission denied" (see docs/confinement.md).
    enableWeakerNestedSandbox: true,
    filesystem: { denyWrite: protectedDirs(confined) },
  };
}

/**
 * `--disallowedTools` rules that keep the file tools out of the protected dirs. `Edit(…)` covers every file-editing
 * tool; `//abs/path/**` is an absolute path in claude's rule syntax (measured: both `//abs/.agent-collab/**` and
 * `./.agent-collab/**` deny a Write to plan.md with "File is in a directory that is denied by your permission
 * settings"; the absolute form also covers a work dir or gitdir outside the repo). Deny rules win over the
 * `Edit(./**)` allow; writes outside the repo are not allowed by any rule, so -p mode denies them.
 */
export function claudeProtectedEditRules(confined: ConfinedTurn): string[] {
  return protectedDirs(confined).map((d) => `Edit(/${d}/**)`);
}
