// The conversation is counted every frame but only the window on screen is laid out: the count and the lazy
// window must agree exactly with laying out everything.
import { describe, expect, it } from 'vitest';
import { conversationLines, conversationSource, entryLineCount } from '../../../src/ui/line-source.js';
import { entryLines, type Line } from '../../../src/ui/lines.js';
import type { ConversationEntry } from '../../../src/ui/view-model.js';

const long = 'word '.repeat(60).trim();
const entries: ConversationEntry[] = [
  { id: 1, who: 'planner', kind: 'message', text: 'short', detail: null },
  { id: 2, who: 'planner', kind: 'message', text: long, detail: null, cont: true },
  { id: 3, who: 'reviewer', kind: 'message', text: 'a\nb\r\nc\n\nd', detail: null },
  { id: 4, who: 'you', kind: 'user', text: '计划'.repeat(30), detail: null },
  { id: 5, who: 'planner', kind: 'question', text: `tab\there ${'x'.repeat(45)}`, detail: null },
  { id: 6, who: 'agent-collab', kind: 'phase', text: 'REVIEW → RESPOND', detail: null },
  { id: 7, who: 'agent-collab', kind: 'notice', text: long, detail: null, tone: 'warn' },
  {
    id: 8,
    who: 'planner',
    kind: 'command',
    text: '$ npm test',
    detail: Array.from({ length: 60 }, (_, i) => `ok ${i}`).join('\n'),
    status: 'ok',
  },
  { id: 9, who: 'planner', kind: 'tool', text: 'read src/a.ts', detail: long, status: 'running' },
  { id: 10, who: 'planner', kind: 'reasoning', text: 'thinking: …', detail: 'why\nbecause' },
  { id: 11, who: 'planner', kind: 'file', text: 'add a.ts', detail: null },
  { id: 12, who: 'agent-collab', kind: 'error', text: 'boom', detail: null, tone: 'error' },
  { id: 13, who: 'planner', kind: 'message', text: '', detail: null },
];

describe('counting lines without laying them out', () => {
  it('gives the number of lines entryLines makes, for every kind, width and expansion', () => {
    for (const width of [12, 20, 37, 60, 100, 200]) {
      for (const expanded of [false, true]) {
        for (const e of entries)
          expect(entryLineCount(e, width, expanded), `entry ${e.id} at ${width}, expanded ${expanded}`).toBe(
            entryLines(e, width, expanded).length,
          );
      }
    }
  });
});

describe('the lazy conversation window', () => {
  it('shows exactly the lines a full layout shows, in any window, after the head lines', () => {
    const head: Line[] = [{ key: 'dropped', text: '… 5 earlier entries not kept in memory', dim: true }];
    for (const width of [20, 60]) {
      for (const expanded of [false, true]) {
        const all = [...head, ...conversationLines(entries, width, expanded)];
        const source = conversationSource(entries, width, expanded, head);
        expect(source.length).toBe(all.length);
        for (let start = 0; start < all.length; start += 3) {
          for (const height of [1, 7, 30])
            expect(source.slice(start, start + height)).toEqual(all.slice(start, start + height));
        }
        expect(source.slice(-5, 2)).toEqual(all.slice(0, 2));
        expect(source.slice(all.length - 2, all.length + 10)).toEqual(all.slice(-2));
      }
    }
  });

  it('lays out only the entries inside the window', () => {
    const many: ConversationEntry[] = Array.from({ length: 1000 }, (_, i) => ({
      id: i + 1,
      who: 'planner',
      kind: 'message',
      text: `line ${i}`,
      detail: null,
    }));
    const laidOut = new Set<number>();
    const watched = many.map(
      (e) => new Proxy(e, { get: (t, k) => (k === 'kind' && laidOut.add(t.id), Reflect.get(t, k)) }),
    );
    const source = conversationSource(watched, 80, false);
    laidOut.clear(); // counting reads every entry's kind; laying out is what must stay small
    const window = source.slice(source.length - 10, source.length);
    expect(window.map((l) => l.text)).toEqual([
      'planner',
      '  line 995',
      'planner',
      '  line 996',
      'planner',
      '  line 997',
      'planner',
      '  line 998',
      'planner',
      '  line 999',
    ]);
    expect([...laidOut].sort((a, b) => a - b)).toEqual([996, 997, 998, 999, 1000]);
  });
});
