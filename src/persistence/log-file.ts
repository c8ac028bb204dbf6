import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inOrder } from './atomic-write.js';
import { patternRedactor } from '../core/redact.js';

export const LOG_HEADER = '# agent-collab log\n';

/**
 * Appends to log.md (created with a header if missing), entries in call order:
 *
 *     ## 2026-02-05T10:30:00.000Z — title
 *
 *     - line
 *
 * The entry is redacted (`redact`, by default the known token formats only) before it is written.
 */
export function appendLog(
  file: string,
  entry: { title: string; lines?: string[]; at?: Date },
  redact: (text: string) => string = patternRedactor.text,
): Promise<void> {
  const text = redact(formatLogEntry(entry));
  return inOrder(file, async () => {
    await mkdir(path.dirname(file), { recursive: true });
    try {
      await writeFile(file, LOG_HEADER + text, { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      await appendFile(file, text, 'utf8');
    }
  });
}

export function formatLogEntry(entry: { title: string; lines?: string[]; at?: Date }): string {
  const at = (entry.at ?? new Date()).toISOString();
  const title = entry.title.replace(/\s+/g, ' ').trim();
  const bullets = (entry.lines ?? []).map((line) => `- ${line.trimEnd().replace(/\r?\n/g, '\n  ')}\n`);
  return `\n## ${at} — ${title}\n${bullets.length > 0 ? `\n${bullets.join('')}` : ''}`;
}
