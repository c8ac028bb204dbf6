// git's global options that take the next word as their value (`git -C dir push`): one list for finding the
// subcommand (git.ts) and for reading option words (programs.ts). A bare `--exec-path` takes none: it prints and exits.
export const GIT_GLOBAL_OPTIONS_WITH_VALUE = [
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--config-env',
  '--list-cmds',
  '--attr-source',
] as const;
