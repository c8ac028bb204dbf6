// The command line of a CLI that runs whole inside the box (codex, claude, gemini, opencode): the one place its bwrap
// argv is built, used by every boxed turn and by the e2e tests that must run a CLI exactly as a turn does.
import { mkdirSync } from 'node:fs';
import { BWRAP, bwrapArgs, type PrivateDir } from './bwrap-args.js';
import type { ConfinedTurn } from './turn.js';
import { programDirs, resolveOnPath } from './which.js';

/** What a CLI writes during a turn (its state dirs) and which dirs it sees only privately. */
export interface OuterBox {
  stateDirs: string[];
  privateDirs?: PrivateDir[];
  /** Dirs that start empty on every turn (writable; nothing written there lasts). */
  scratchDirs?: string[];
  /** Paths that stay read-only whatever covers them (bound last). */
  readOnly?: string[];
}

/** `bwrap … <program> <args>` for a turn; null when `binary` is not on the child's PATH. */
export function outerBoxCommand(
  box: OuterBox,
  confined: ConfinedTurn,
  repoReadOnly: boolean,
  binary: string,
  args: string[],
  childEnv: NodeJS.ProcessEnv,
): { command: string; args: string[] } | null {
  const program = resolveOnPath(binary, childEnv.PATH);
  if (program === null) return null;
  // The CLI creates its state dir on first use; inside the box its parent (HOME) is read-only.
  for (const dir of box.stateDirs) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch {
      // the CLI says what is wrong with its own dir
    }
  }
  const spec = {
    repo: confined.repo,
    workdir: confined.workdir,
    stateDirs: box.stateDirs,
    visible: programDirs(program),
    repoReadOnly,
    ...(box.privateDirs ? { privateDirs: box.privateDirs } : {}),
    ...(box.scratchDirs ? { scratchDirs: box.scratchDirs } : {}),
    ...(box.readOnly ? { readOnly: box.readOnly } : {}),
    ...(childEnv.HOME ? { home: childEnv.HOME } : {}),
    ...(childEnv.TMPDIR ? { tmpDir: childEnv.TMPDIR } : {}),
  };
  return { command: BWRAP, args: bwrapArgs(spec, program, args) };
}
