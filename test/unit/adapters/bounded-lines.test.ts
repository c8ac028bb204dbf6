import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { boundedLines, joinCut } from '../../../src/adapters/bounded-lines.js';

async function linesOf(chunks: string[], maxChars?: number): Promise<string[]> {
  const out: string[] = [];
  for await (const l of boundedLines(Readable.from(chunks.map((c) => Buffer.from(c))), { maxChars })) out.push(l);
  return out;
}

describe('boundedLines', () => {
  it('splits lines across chunk boundaries, drops the CR of CRLF, keeps a last line without a newline', async () => {
    expect(await linesOf(['a\nb', 'c\r\n', '\nd'])).toEqual(['a', 'bc', '', 'd']);
  });

  it('a line over the limit keeps its head and tail around a marker saying how much was cut', async () => {
    const line = `HEAD${'x'.repeat(10_000)}TAIL`;
    const [cut] = await linesOf([line.slice(0, 3000), line.slice(3000, 7000), `${line.slice(7000)}\nnext`], 1000);
    expect(cut).toMatch(/^HEADx+ … \[agent-collab: \d+ characters cut here; the line was too long to keep\] … x+TAIL$/);
    expect(cut!.length).toBeLessThan(1200);
    const n = Number(/(\d+) characters cut/.exec(cut!)?.[1]);
    expect(cut!.length - cutMarkerLength(cut!) + n).toBe(line.length);
  });

  it('a huge JSON line whose bulk is one string is still that JSON object, its text cut in the middle', async () => {
    const text = `start ${'a\\"b\\\\c\\u00e9 '.repeat(5000)} end`;
    const json = JSON.stringify({
      type: 'item.completed',
      item: { type: 'agent_message', text: JSON.parse(`"${text}"`) },
    });
    const [cut] = await linesOf([json, '\n'], 2000);
    const parsed = JSON.parse(cut!) as { item: { type: string; text: string } };
    expect(parsed.item.type).toBe('agent_message');
    expect(parsed.item.text.startsWith('start a"b\\cé')).toBe(true);
    expect(parsed.item.text.endsWith(' end')).toBe(true);
    expect(parsed.item.text).toContain('characters cut here');
  });

  // (the tail is far from the end of the string in a huge line: what it skips at its start is never the closing quote)
  it('joinCut never leaves a dangling escape at the head nor an escaped quote at the tail', () => {
    for (const [head, tail] of [
      ['{"t":"ab\\', '"c"}'],
      ['{"t":"ab\\u00', 'e9c"}'],
      ['{"t":"ab\\\\', '\\\\ yz"}'],
      ['{"t":"ab\\\\\\', '\\"x"}'],
    ] as const)
      expect(() => JSON.parse(joinCut(head, tail, 10))).not.toThrow();
  });
});

function cutMarkerLength(s: string): number {
  return (/ … \[agent-collab: .*?\] … /.exec(s)?.[0] ?? '').length;
}
