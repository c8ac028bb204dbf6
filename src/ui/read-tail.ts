// The last lines of a (possibly large, growing) file, read backwards from its end in blocks: the cost depends on
// the lines asked for, not on the file's size.
import { open } from 'node:fs/promises';

const BLOCK = 16 * 1024;

/** The last `maxLines` lines of the file (at most `maxBytes` read); null when it does not exist. */
export async function readTail(file: string, maxLines = 200, maxBytes = 512 * 1024): Promise<string | null> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return null;
  }
  try {
    const { size } = await handle.stat();
    const blocks: Buffer[] = [];
    let pos = size;
    let newlines = 0;
    let read = 0;
    // One more newline than lines wanted: the first line in the window may be cut.
    while (pos > 0 && newlines <= maxLines && read < maxBytes) {
      const len = Math.min(BLOCK, pos, maxBytes - read);
      pos -= len;
      const buf = Buffer.alloc(len);
      const { bytesRead } = await handle.read(buf, 0, len, pos);
      const chunk = buf.subarray(0, bytesRead);
      for (const b of chunk) if (b === 0x0a) newlines++;
      blocks.unshift(chunk);
      read += bytesRead;
    }
    let text = Buffer.concat(blocks).toString('utf8');
    if (pos > 0) text = text.slice(text.indexOf('\n') + 1); // drop the partial first line
    const lines = text.replace(/\n$/, '').split('\n');
    return lines.slice(Math.max(0, lines.length - maxLines)).join('\n');
  } finally {
    await handle.close();
  }
}
