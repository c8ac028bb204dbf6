// The commands agent-collab's hook approved for one role, so an adapter can tell a command that ran with the
// hook's approval from one that ran without it (the hook did not run: hooks disabled, hook trust missing, …).

/** Whitespace-insensitive form of a command. */
function normal(command: string): string {
  return command.trim().replace(/\s+/g, ' ');
}

/** A coarser form that survives a CLI re-quoting the command (codex shows `/bin/bash -lc '<cmd>'`). */
function loose(command: string): string {
  return command.replace(/['"\\\s]/g, '');
}

export class CommandApprovals {
  private readonly approved: string[] = [];

  record(command: string): void {
    this.approved.push(command);
  }

  /**
   * Whether an approval for `command` is on record; it is used up, so each approval covers one run of the command.
   * Exact (whitespace-normalized) matches are preferred; re-quoted forms are accepted as a second choice.
   */
  take(command: string): boolean {
    let i = this.approved.findIndex((c) => normal(c) === normal(command));
    if (i < 0) i = this.approved.findIndex((c) => loose(c) === loose(command));
    if (i < 0) return false;
    this.approved.splice(i, 1);
    return true;
  }
}

/**
 * The script inside a `<shell> -c <script>` / `-lc` wrapper (how codex reports the commands it ran), unquoted as a
 * POSIX shell would; the command itself when it is not such a wrapper or cannot be unquoted.
 */
export function unwrapShellCommand(command: string): string {
  const m = /^\s*(?:\S*\/)?(?:bash|sh|zsh|dash|ksh)\s+-l?c\s+([\s\S]+?)\s*$/.exec(command);
  if (!m?.[1]) return command;
  return unquoteWord(m[1]) ?? command;
}

/** One shell word with '…', "…" and \-escapes removed; null when `word` is not exactly one word. */
export function unquoteWord(word: string): string | null {
  let out = '';
  let i = 0;
  while (i < word.length) {
    const ch = word[i]!;
    if (ch === "'") {
      const end = word.indexOf("'", i + 1);
      if (end < 0) return null;
      out += word.slice(i + 1, end);
      i = end + 1;
    } else if (ch === '"') {
      i += 1;
      for (;;) {
        if (i >= word.length) return null;
        const c = word[i]!;
        if (c === '"') break;
        if (c === '\\' && i + 1 < word.length && '"\\$`\n'.includes(word[i + 1]!)) {
          out += word[i + 1]!;
          i += 2;
        } else {
          out += c;
          i += 1;
        }
      }
      i += 1;
    } else if (ch === '\\') {
      if (i + 1 >= word.length) return null;
      out += word[i + 1]!;
      i += 2;
    } else if (/\s/.test(ch)) {
      return null;
    } else {
      out += ch;
      i += 1;
    }
  }
  return out;
}
