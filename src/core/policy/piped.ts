// What a command line does around one command that the command's own words do not show: text piped into it
// (`echo "print(1)" | python3`) and environment variables that make git read config nobody can see here.
import { standIn } from './equivalents.js';
import { readGit } from './git.js';
import { programName } from './programs.js';
import type { Cmd, Finding, ScriptPart, Stdin } from './types.js';

/** The text `echo`/`printf` writes, when it is fixed; null when it depends on run time or on escapes. */
function staticOutput(cmd: Cmd): string | null {
  const program = programName(cmd.args[0]!.value);
  const words = cmd.args.slice(1);
  if (words.some((a) => a.dynamic)) return null;
  if (program === 'echo') {
    const text = words.filter((a, i) => !(i === 0 && a.value === '-n'));
    return text.some((a) => /^-[eE]+$/.test(a.value) || a.value.includes('\\'))
      ? null
      : text.map((a) => a.value).join(' ');
  }
  if (program === 'printf' && words.length === 1 && !/%/.test(words[0]!.value))
    return words[0]!.value.replace(/\\n/g, '\n').replace(/\\t/g, '\t');
  return null;
}

/**
 * A command at the right end of a pipe reads the left command's output. Known text (`echo "…" | bash`) is
 * handed on as a here-string, so it is checked like `bash <<< "…"`; anything else is input only known at run time.
 */
export function withPipedInput(cmd: Cmd, parts: readonly ScriptPart[]): Cmd {
  if (cmd.stdin !== null) return cmd;
  const before = cmd.source.slice(0, cmd.args[0]!.start).trimEnd();
  if (!before.endsWith('|') || before.endsWith('||')) return cmd;
  const pipeAt = before.length - 1;
  const left = parts.findLast(
    (p): p is Extract<ScriptPart, { kind: 'command' }> =>
      p.kind === 'command' && p.cmd.source === cmd.source && (p.cmd.args.at(-1)?.end ?? Infinity) <= pipeAt,
  );
  const adjacent = left && cmd.source.slice(left.cmd.args.at(-1)!.end, pipeAt).trim() === '';
  const text = adjacent ? staticOutput(left.cmd) : null;
  const stdin: Stdin = text === null ? { kind: 'file', dynamic: true } : { kind: 'herestring', text, dynamic: false };
  return { ...cmd, stdin };
}

/** Variables that make git read config files (or config pairs) the command line does not show. */
const GIT_CONFIG_ENV =
  /^(HOME|XDG_CONFIG_HOME|GIT_CONFIG|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|GIT_CONFIG_COUNT|GIT_CONFIG_PARAMETERS|GIT_CONFIG_KEY_\d+|GIT_CONFIG_VALUE_\d+|GIT_DIR|GIT_COMMON_DIR)$/;

/**
 * `HOME=. git push`, `GIT_CONFIG_COUNT=1 … git push`: config the policy cannot read can set
 * `remote.<name>.mirror`, which turns a plain push into one that deletes the remote's branches. Such a push
 * is checked as `git push --force`.
 */
export function hiddenPushConfig(findings: readonly Finding[]): Finding[] {
  const env = findings.find(
    (f): f is Extract<Finding, { kind: 'env' }> => f.kind === 'env' && GIT_CONFIG_ENV.test(f.name),
  );
  if (!env) return [];
  return findings.flatMap((f): Finding[] => {
    if (f.kind !== 'command' || f.equivalent) return [];
    const git = readGit(f.cmd);
    if (!git || (git.sub !== 'push' && git.sub !== 'send-pack')) return [];
    const s = standIn(f.cmd, ['git', 'push', '--force'], `${env.name} set: git reads config not shown here`);
    return [{ kind: 'command', cmd: s.cmd, equivalent: s.equivalent }];
  });
}
