// Writes a stand-in CLI executable for adapter tests: it prints a recorded transcript, some stderr, then exits
// (or hangs), and saves the argv it got and the command hook's variables in its environment next to itself.
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export interface FakeCliBehaviour {
  /** A fixture transcript to print on stdout, line by line. */
  transcript?: string;
  /** Extra raw stdout lines after the transcript. */
  stdout?: string[];
  stderr?: string;
  exitCode?: number;
  hang?: boolean;
}

export async function writeFakeCli(dir: string, name: string, b: FakeCliBehaviour): Promise<string> {
  const file = path.join(dir, name);
  const transcript = b.transcript ? await readFile(path.join(FIXTURES, b.transcript), 'utf8') : '';
  const config = { out: transcript + (b.stdout ?? []).map((l) => `${l}\n`).join(''), err: b.stderr ?? '', code: b.exitCode ?? 0, hang: b.hang ?? false };
  const script = `#!${process.execPath}
const fs = require('node:fs');
const c = ${JSON.stringify(config)};
fs.writeFileSync(${JSON.stringify(`${file}.argv.json`)}, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }));
fs.writeFileSync(${JSON.stringify(`${file}.hook-env.json`)}, JSON.stringify({ token: process.env.AGENT_COLLAB_HOOK_TOKEN ?? null, replyKey: process.env.AGENT_COLLAB_HOOK_REPLY_KEY ?? null }));
process.stdout.write(c.out);
process.stderr.write(c.err);
if (c.hang) setInterval(() => {}, 1000);
else process.stdout.write('', () => process.exit(c.code));
`;
  await writeFile(file, script);
  await chmod(file, 0o755);
  return file;
}

export async function argvOf(cli: string): Promise<{ argv: string[]; cwd: string }> {
  return JSON.parse(await readFile(`${cli}.argv.json`, 'utf8')) as { argv: string[]; cwd: string };
}

/** The AGENT_COLLAB_HOOK_TOKEN and AGENT_COLLAB_HOOK_REPLY_KEY the stand-in found in its environment (null: none). */
export async function hookEnvOf(cli: string): Promise<{ token: string | null; replyKey: string | null }> {
  return JSON.parse(await readFile(`${cli}.hook-env.json`, 'utf8')) as { token: string | null; replyKey: string | null };
}
