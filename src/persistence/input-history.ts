// The text boxes' history across runs, the goals and messages sent, newest first, at most 200: the person's own,
// like a shell's history, so it lives in their state dir ($XDG_STATE_HOME/agent-collab/input-history/, one file per
// repository), out of the repo an agent writes in: an agent can neither plant "earlier goals" there nor swap the
// file for a link that agent-collab would then write through. Written whole and atomically after each one (a crash
// leaves the old list or the new one), redacted at this sink too: a pasted secret never lands on disk in clear.
import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Redactor } from '../core/redact.js';
import { inOrder, writeAtomic } from './atomic-write.js';

/** A history file larger than this is not read (it is only a help; 200 entries of 16 KiB at most are written). */
const MAX_READ_BYTES = 8 * 1024 * 1024;

/** `$XDG_STATE_HOME/agent-collab/input-history/<repo hash>.json`, else under `~/.local/state`. */
export function inputHistoryPath(
  repoRoot: string,
  homeDir: string = os.homedir(),
  env: NodeJS.ProcessEnv = process.env,
): string {
  const state =
    env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME)
      ? env.XDG_STATE_HOME
      : path.join(homeDir, '.local', 'state');
  const repo = createHash('sha256').update(path.resolve(repoRoot)).digest('hex').slice(0, 16);
  return path.join(state, 'agent-collab', 'input-history', `${repo}.json`);
}

/** The saved entries, newest first; none when the file is missing or not a list of strings (it is only a help). */
export async function readInputHistory(file: string, redactor: Redactor, max: number): Promise<string[]> {
  let parsed: unknown;
  try {
    const info = await lstat(file);
    if (!info.isFile() || info.size > MAX_READ_BYTES) return [];
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return [];
  }
  const entries = (parsed as { entries?: unknown } | null)?.entries;
  if (!Array.isArray(entries)) return [];
  return entries
    .filter((e): e is string => typeof e === 'string' && e.trim() !== '')
    .slice(0, max)
    .map((e) => redactor.text(e));
}

/** Replaces the file with `entries` (redacted), in call order with the earlier saves. */
export function saveInputHistory(file: string, entries: readonly string[], redactor: Redactor): Promise<void> {
  const data = `${JSON.stringify({ version: 1, entries: entries.map((e) => redactor.text(e)) }, null, 2)}\n`;
  return inOrder(file, async () => {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // A link or anything but a plain file in its place is not written through: the history is not saved then.
    const info = await lstat(file).catch(() => null);
    if (info && !info.isFile()) throw new Error(`${file} is not a regular file`);
    await writeAtomic(file, data, { durable: false }); // in a 0700 dir: the person's eyes only
  });
}
