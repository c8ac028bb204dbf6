// Records every CLI invocation agent-collab makes: a small bash wrapper, set as `[agents.*] command`, writes its
// cwd + argv, environment and its stdin (agent-collab sends prompts there; /dev/null when it sends none) to a log
// dir, then execs the real CLI (same process, so agent-collab watches and signals the CLI itself). How long each CLI
// ran is not timed here: agent-collab's debug.log records it.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One CLI invocation, as agent-collab made it. */
export interface Invocation {
  /** `codex` or `claude` (the wrapper's name). */
  cli: string;
  /** The real executable the wrapper exec'd. */
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** What agent-collab wrote to the CLI's stdin (the prompt); undefined when stdin was /dev/null. */
  input: string | undefined;
}

const shQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Writes `<binDir>/<cli>` (executable): logs the invocation into `logDir`, then runs `real`. Returns its path. */
export function writeRecorder(binDir: string, logDir: string, cli: string, real: string): string {
  const file = path.join(binDir, cli);
  const at = (ext: string): string => `${shQuote(logDir)}/$id.${ext}`;
  writeFileSync(
    file,
    [
      '#!/bin/bash',
      // A boxed CLI has a pid namespace of its own, so $$ repeats across calls: each call gets a random id.
      'id=$(cat /proc/sys/kernel/random/uuid)',
      `printf '%s\\0' "$PWD" "$@" > ${at('argv')}`,
      `mapfile -d '' vars < /proc/$$/environ; printf '%s\\0' "\${vars[@]}" > ${at('env')}`,
      `echo "$id ${cli}" >> ${shQuote(logDir)}/index`,
      `if [ /proc/$$/fd/0 -ef /dev/null ]; then exec ${shQuote(real)} "$@"; fi`,
      // the prompt: kept for the replay, then given to the CLI as agent-collab gave it
      `cat > ${at('stdin')}`,
      `exec ${shQuote(real)} "$@" < ${at('stdin')}`,
      '',
    ].join('\n'),
  );
  chmodSync(file, 0o755);
  return file;
}

function nulFields(text: string): string[] {
  const parts = text.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

/** The invocations logged in `logDir`, in the order they started. `real` maps a CLI name to its executable. */
export function readInvocations(logDir: string, real: Record<string, string>): Invocation[] {
  const index = path.join(logDir, 'index');
  if (!existsSync(index)) return [];
  return readFileSync(index, 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [pid = '', cli = ''] = line.split(' ');
      const at = (ext: string): string => readFileSync(path.join(logDir, `${pid}.${ext}`), 'utf8');
      const [cwd = '', ...args] = nulFields(at('argv'));
      const env: NodeJS.ProcessEnv = {};
      for (const kv of nulFields(at('env'))) {
        const eq = kv.indexOf('=');
        if (eq > 0) env[kv.slice(0, eq)] = kv.slice(eq + 1);
      }
      const file = real[cli];
      if (file === undefined) throw new Error(`recorded an invocation of unknown CLI "${cli}"`);
      const input = existsSync(path.join(logDir, `${pid}.stdin`)) ? at('stdin') : undefined;
      return { cli, file, args, cwd, env, input };
    });
}
