// The text boxes' history across runs: `.agent-collab/input-history.json`, the goals and messages sent, newest
// first, at most 200. Written whole and atomically after each one (a crash leaves the old list or the new one),
// redacted at this sink too: a pasted secret never lands on disk in clear.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Redactor } from '../core/redact.js';
import { inOrder, writeAtomic } from './atomic-write.js';

export const INPUT_HISTORY_FILE = 'input-history.json';

export function inputHistoryPath(workdir: string): string {
  return path.join(workdir, INPUT_HISTORY_FILE);
}

/** The saved entries, newest first; none when the file is missing or not a list of strings (it is only a help). */
export async function readInputHistory(file: string, redactor: Redactor, max: number): Promise<string[]> {
  let parsed: unknown;
  try {
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
  return inOrder(file, () => writeAtomic(file, data, { durable: false }));
}
