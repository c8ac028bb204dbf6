// Types shared by the command policy. Public ones are re-exported from index.ts.

export type PolicyDecision = 'allow' | 'confirm' | 'block';

/** The two lists from `[safety]`: `blocked_commands` and `require_confirm_for`. */
export interface PolicyRules {
  blocked: readonly string[];
  confirm: readonly string[];
}

export interface PolicyResult {
  decision: PolicyDecision;
  /** The config entry that matched, or a built-in rule name ("interactive shell", "unparseable"); null on allow. */
  rule: string | null;
  /** The simple command (as text) that matched, e.g. "rm -r -f build"; null on allow. */
  matched: string | null;
  /** One line for a person or the agent: why. */
  reason: string;
}

/** One shell word: its value after quote removal, or its raw text when it depends on an expansion. */
export interface Arg {
  value: string;
  /** True when the word contains `$x`, `${…}`, `$(…)`, backticks or `$((…))`: its run-time value is unknown. */
  dynamic: boolean;
  /** An unquoted glob or brace expansion (`*.o`, `r?`, `{a,b}`): also `dynamic`, it becomes file names or words. */
  glob?: boolean;
  /** Offsets of the word in `Cmd.source`. */
  start: number;
  end: number;
}

/** Where a command's standard input comes from, when a redirect says so. */
export type Stdin =
  | { kind: 'heredoc' | 'herestring'; text: string; dynamic: boolean }
  /** `< file`; `dynamic` when the file is only known at run time (`< <(…)`, `< "$F"`). */
  | { kind: 'file'; dynamic?: boolean };

/** A simple command: program and arguments, after assignments and redirects were taken out. */
export interface Cmd {
  args: Arg[];
  /** The text the offsets of `args` refer to (the whole command, or a nested `bash -c` string). */
  source: string;
  stdin: Stdin | null;
}

/** A file the command line writes to: an output redirect, or `tee FILE` / `dd of=FILE`. */
export interface WriteTarget {
  /** `>`, `>>`, `&>`, `>|`, `<>`, `tee`, `dd of=`… */
  op: string;
  target: string;
  dynamic: boolean;
  /** Shown as "matched", e.g. "> /dev/sda". */
  text: string;
}

/** What the analysis of a command line found, in source order. */
export type Finding =
  /** `equivalent` names what a stand-in command means (`find / -delete` is checked as `rm -r -f /`). */
  | { kind: 'command'; cmd: Cmd; equivalent?: string }
  | { kind: 'write'; write: WriteTarget }
  | { kind: 'interactive'; text: string; why: string }
  | { kind: 'unparseable'; text: string; why: string }
  /** Valid shell, but what it runs is only known at run time (`$CMD x`, `source f`, `bash <(…)`, `alias`…). */
  | { kind: 'opaque'; text: string; why: string }
  /** An environment variable set somewhere in the command line (`HOME=. git push`, `env X=1 …`, `export X=1`). */
  | { kind: 'env'; name: string };

/** A shell command line parsed into its parts (the parser itself is an adapter: tree-sitter-bash, WASM). */
export type ScriptPart =
  | { kind: 'command'; cmd: Cmd; start: number }
  | { kind: 'write'; write: WriteTarget; start: number }
  /** `NAME=value`, alone, before a command or after `export`/`declare`/`local`. */
  | { kind: 'assign'; name: string; value: Arg; start: number };

export interface Script {
  /** Simple commands and redirect targets, in source order. Nested `$(…)`, `(…)`, `{ …; }` included. */
  parts: ScriptPart[];
  /** Set when the text is not valid shell: where the parser gave up. */
  syntaxError: string | null;
}

/** The parser the policy works on, handed in by the caller so that the policy itself stays pure. */
export type ParseScript = (text: string) => Script;
