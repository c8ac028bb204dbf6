import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const LOG_HEADER = '# agent-collab log\n';

/**
 * Appends to log.md (created with a header if missing):
 *
 *     ## 2026-02-05T10:30:00.000Z — title
 *
 *     - line
 */
export async function appendLog(file: string, entry: { title: string; lines?: string[]; at?: Date }): Promise<void> {
  // Synchronous calls: a transition waits for its log entry before the state is saved, and each asynchronous call
  // would be a thread-pool round trip (several milliseconds while the CLIs keep both cores busy) for a few hundred bytes.
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, LOG_HEADER, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  appendFileSync(file, formatLogEntry(entry), 'utf8');
}

export function formatLogEntry(entry: { title: string; lines?: string[]; at?: Date }): string {
  const at = (entry.at ?? new Date()).toISOString();
  const title = entry.title.replace(/\s+/g, ' ').trim();
  const bullets = (entry.lines ?? []).map((line) => `- ${line.trimEnd().replace(/\r?\n/g, '\n  ')}\n`);
  return `\n## ${at} — ${title}\n${bullets.length > 0 ? `\n${bullets.join('')}` : ''}`;
}
