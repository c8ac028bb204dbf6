// The hook client the CLIs run before every shell command: command-hook.sh under bash, which reaches agent-collab
// through bash's /dev/tcp with no program started besides bash itself. Its text travels inside the command line
// (`bash --norc -p -c '<text>' agent-collab-hook <port> <role> <deadline>`), so no file has to stay in place for the
// session: a hook whose file had gone (a rebuild, a reinstall) would exit 127, which both CLIs take as "allow".
// At start the server runs that command line once with a probe request (its own token and reply key) against its own
// port: a bash that is missing or built without /dev/tcp fails it, and agent-collab stops with the reason instead
// of handing the CLIs a hook that cannot answer.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fromPackageRoot } from '../../package-root.js';
import { bashClientArgv, hookOutput, HOOK_REPLY_KEY_ENV, HOOK_TOKEN_ENV, REASON_PREFIX } from './protocol.js';

/** The role a probe request carries, with the probe's own token and reply key (never the session's). */
export const PROBE_ROLE = 'probe';
/** What the server answers a probe (after the probe's reply key); the probe succeeds when the client printed exactly this line. */
export const PROBE_ANSWER = hookOutput('allow', `${REASON_PREFIX}probe`);

const PROBE_TIMEOUT_MS = 5_000;

/**
 * `--norc`: bash -c with a socket on stdin (node gives its children socketpairs) thinks rshd started it and sources
 * ~/.bashrc, which is slow and may print. `-p`: no BASH_ENV, no functions or SHELLOPTS from the environment.
 */
const BASH_OPTIONS = ['--norc', '-p'];

/** `$0` of the client (shown by `ps`). */
const CLIENT_NAME = 'agent-collab-hook';

interface ClientArgs {
  port: number;
  role: string;
  deadlineSeconds: number;
}

/** The shipped command-hook.sh: next to this module in the sources, copied into dist/ by scripts/bundle.mjs. */
function bashClientSource(): string {
  return import.meta.url.endsWith('.ts')
    ? fileURLToPath(new URL('./command-hook.sh', import.meta.url))
    : fromPackageRoot('dist', 'adapters', 'command-hook', 'command-hook.sh');
}

/** The client's text without its comment lines and blank lines; throws a one-line error when it cannot be read. */
export function readBashClient(source = bashClientSource()): string {
  let text: string;
  try {
    text = readFileSync(source, 'utf8');
  } catch (err) {
    throw new Error(
      `cannot read the command hook client ${source} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  return text
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'))
    .join('\n');
}

function bashClientCommand(bash: string, script: string, args: ClientArgs): string[] {
  return [bash, ...BASH_OPTIONS, '-c', script, CLIENT_NAME, ...bashClientArgv(args)];
}

/** The hook command line the CLIs run (a POSIX shell line). */
export function bashClientLine(bash: string, script: string, args: ClientArgs): string {
  return shellLine(bashClientCommand(bash, script, args));
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** argv as one POSIX shell command line. */
export function shellLine(argv: readonly string[]): string {
  return argv.map((a) => (SAFE_WORD.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** Runs the client once against the server's port with the probe's token and key; null when it works, else why not. */
export function probeBashClient(opts: {
  bash: string;
  script: string;
  port: number;
  probe: { token: string; replyKey: string };
}): Promise<string | null> {
  return new Promise((resolve) => {
    let stdout = '';
    const [bash, ...args] = bashClientCommand(opts.bash, opts.script, {
      port: opts.port,
      role: PROBE_ROLE,
      deadlineSeconds: 5,
    });
    const child = spawn(bash!, args, {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        [HOOK_TOKEN_ENV]: opts.probe.token,
        [HOOK_REPLY_KEY_ENV]: opts.probe.replyKey,
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stdin.on('error', () => undefined);
    child.stdin.end('{"tool_name":"Bash","tool_input":{"command":"true"}}');
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(
        err.code === 'ENOENT' ? `${opts.bash} does not exist` : `${opts.bash} could not be started (${err.message})`,
      );
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (stdout === `${PROBE_ANSWER}\n`) return resolve(null);
      const first = stdout.split('\n')[0]!.slice(0, 200);
      resolve(
        `the probe through ${opts.bash} did not come back (${signal ?? `exit ${code}`}${first ? `: ${first}` : ''})`,
      );
    });
  });
}
