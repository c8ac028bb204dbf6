// Writes a stand-in CLI executable for adapter tests: it prints a recorded transcript, some stderr, then exits
// (or hangs), and saves the argv and stdin it got and the command hook's variables in its environment next to itself.
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../unit/adapters/fixtures');

export interface FakeCliBehaviour {
  /** A fixture transcript to print on stdout, line by line. */
  transcript?: string;
  /** Extra raw stdout lines after the transcript. */
  stdout?: string[];
  stderr?: string;
  exitCode?: number;
  /** Never exits by itself (after printing everything). */
  hang?: boolean;
  /** Waits this long after printing everything before it exits. */
  lingerMs?: number;
  /**
   * First starts a `sleep` in a session of its own that holds the CLI's stdout and stderr open (like a tool's
   * escaped background job); its pid goes to `<cli>.escaped`.
   */
  escapedChild?: boolean;
}

export async function writeFakeCli(dir: string, name: string, b: FakeCliBehaviour): Promise<string> {
  const file = path.join(dir, name);
  const transcript = b.transcript ? await readFile(path.join(FIXTURES, b.transcript), 'utf8') : '';
  const config = {
    out: transcript + (b.stdout ?? []).map((l) => `${l}\n`).join(''),
    err: b.stderr ?? '',
    code: b.exitCode ?? 0,
    hang: b.hang ?? false,
    linger: b.lingerMs ?? 0,
    escaped: b.escapedChild ?? false,
  };
  const script = `#!${process.execPath}
const fs = require('node:fs');
const c = ${JSON.stringify(config)};
const life = (what) => fs.appendFileSync(${JSON.stringify(`${file}.life`)}, what + ' ' + process.pid + '\\n');
life('start');
if (c.escaped) {
  const e = require('node:child_process').spawn('sleep', ['1000'], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
  fs.writeFileSync(${JSON.stringify(`${file}.escaped`)}, String(e.pid));
  e.unref();
}
fs.writeFileSync(${JSON.stringify(`${file}.argv.json`)}, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), stdin: fs.readFileSync(0, 'utf8') }));
fs.writeFileSync(${JSON.stringify(`${file}.hook-env.json`)}, JSON.stringify({ token: process.env.AGENT_COLLAB_HOOK_TOKEN ?? null, replyKey: process.env.AGENT_COLLAB_HOOK_REPLY_KEY ?? null }));
process.stdout.write(c.out);
process.stderr.write(c.err);
if (c.hang) setInterval(() => {}, 1000);
else process.stdout.write('', () => setTimeout(() => { life('exit'); process.exit(c.code); }, c.linger));
`;
  await writeFile(file, script);
  await chmod(file, 0o755);
  return file;
}

/** The pid of the escaped `sleep` (see `escapedChild`); the test kills it. */
export async function escapedPidOf(cli: string): Promise<number> {
  return Number(await readFile(`${cli}.escaped`, 'utf8'));
}

/** The stand-in's last argv, cwd and everything it read on stdin (the prompt). */
export async function argvOf(cli: string): Promise<{ argv: string[]; cwd: string; stdin: string }> {
  return JSON.parse(await readFile(`${cli}.argv.json`, 'utf8')) as { argv: string[]; cwd: string; stdin: string };
}

/** What the stand-in's runs logged, in order: `start <pid>` when one began, `exit <pid>` right before one exited by itself. */
export async function lifeOf(cli: string): Promise<string[]> {
  return (await readFile(`${cli}.life`, 'utf8')).trim().split('\n');
}

/** The AGENT_COLLAB_HOOK_TOKEN and AGENT_COLLAB_HOOK_REPLY_KEY the stand-in found in its environment (null: none). */
export async function hookEnvOf(cli: string): Promise<{ token: string | null; replyKey: string | null }> {
  return JSON.parse(await readFile(`${cli}.hook-env.json`, 'utf8')) as {
    token: string | null;
    replyKey: string | null;
  };
}
