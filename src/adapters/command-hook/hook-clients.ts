// Which hook client the CLIs run. A check through the bash client costs ~5 ms, through the node client ~145 ms (node
// start-up), and a hook runs before every shell command, so bash is the choice wherever it works. The bash client's
// text (command-hook.sh, read once at server start) travels inside the command line (`bash --norc -p -c '<text>' …`), so
// no file has to stay in place for the whole session: a hook whose file had gone (a rebuild, a reinstall, a cleaned
// temp dir) would exit 127, which both CLIs take as "allow". At start the server runs that command line once with a
// probe request (its own token and reply key) to its own port; if the round trip does not come back exactly (no /bin/bash, a bash built without
// /dev/tcp, the script missing), the node client is used instead.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { bashClientSource, nodeClientProgram, shellLine } from './hook-program.js';
import { bashClientArgv, hookOutput, HOOK_REPLY_KEY_ENV, HOOK_TOKEN_ENV, nodeClientArgv, REASON_PREFIX } from './protocol.js';

export type HookClientKind = 'bash' | 'node';

/** The role a probe request carries, with the probe's own token and reply key (never the session's). */
export const PROBE_ROLE = 'probe';
/** What the server answers a probe (after the probe's reply key); the probe succeeds when the bash client printed exactly this line. */
export const PROBE_ANSWER = hookOutput('allow', `${REASON_PREFIX}probe`);

const PROBE_TIMEOUT_MS = 5_000;

export interface HookClient {
  kind: HookClientKind;
  /** The hook command line for one role; throws when this client cannot be started. */
  commandLine(args: { port: number; role: string; deadlineSeconds: number }): string;
  /** For debug.log: which client and why. */
  note: string;
}

/**
 * `--norc`: bash -c with a socket on stdin (node gives its children socketpairs) thinks rshd started it and sources
 * ~/.bashrc, which is slow and may print. `-p`: no BASH_ENV, no functions or SHELLOPTS from the environment.
 */
const BASH_OPTIONS = ['--norc', '-p'];

/** `$0` of the bash client (shown by `ps`). */
const BASH_CLIENT_NAME = 'agent-collab-hook';

function bashArgv(bash: string, script: string, args: { port: number; role: string; deadlineSeconds: number }): string[] {
  return [bash, ...BASH_OPTIONS, '-c', script, BASH_CLIENT_NAME, ...bashClientArgv(args)];
}

export function bashClient(bash: string, script: string, note: string): HookClient {
  return { kind: 'bash', note, commandLine: (args) => shellLine(bashArgv(bash, script, args)) };
}

export function nodeClient(note: string, program?: readonly string[]): HookClient {
  return {
    kind: 'node',
    note,
    commandLine: ({ port, role, deadlineSeconds }) =>
      shellLine([...(program ?? nodeClientProgram()), ...nodeClientArgv({ port, role, deadlineMs: deadlineSeconds * 1000 })]),
  };
}

/** The bash client's text without its comment lines and blank lines, or why it cannot be read. */
export function readBashClient(source = bashClientSource()): { script: string } | { why: string } {
  try {
    const lines = readFileSync(source, 'utf8').split('\n');
    return { script: lines.filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#')).join('\n') };
  } catch (err) {
    return { why: `cannot read the bash hook client (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
}

/** Runs the bash client once against the server's port with the probe's token and key; null when it works, else why not. */
export function probeBashClient(opts: { bash: string; script: string; port: number; probe: { token: string; replyKey: string } }): Promise<string | null> {
  if (!existsSync(opts.bash)) return Promise.resolve(`${opts.bash} does not exist`);
  return new Promise((resolve) => {
    let stdout = '';
    const [bash, ...args] = bashArgv(opts.bash, opts.script, { port: opts.port, role: PROBE_ROLE, deadlineSeconds: 5 });
    const child = spawn(bash!, args, {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', [HOOK_TOKEN_ENV]: opts.probe.token, [HOOK_REPLY_KEY_ENV]: opts.probe.replyKey },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stdin.on('error', () => undefined);
    child.stdin.end('{"tool_name":"Bash","tool_input":{"command":"true"}}');
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve(`${opts.bash} could not be started (${err.message})`);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (stdout === `${PROBE_ANSWER}\n`) return resolve(null);
      const first = stdout.split('\n')[0]!.slice(0, 200);
      resolve(`the probe through ${opts.bash} did not come back (${signal ?? `exit ${code}`}${first ? `: ${first}` : ''})`);
    });
  });
}

/** A client that cannot be started: asking for its command line throws `why`. */
export function unusableClient(why: string): HookClient {
  return {
    kind: 'bash',
    note: `no usable client (${why})`,
    commandLine: () => {
      throw new Error(`agent-collab's command hook cannot run: ${why}; reinstall agent-collab`);
    },
  };
}
