// The search's pure parts: smart case, a literal query, a scan that goes a bounded number of lines per call and
// wraps, and the keys n / N / Esc that belong to the search only while one is on.
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { commandFor, type KeyContext } from '../../../src/ui/keymap.js';
import type { Line } from '../../../src/ui/lines.js';
import type { LineSource } from '../../../src/ui/line-source.js';
import {
  continueScan,
  matchRanges,
  revealLine,
  searchPattern,
  startScan,
  type ScanResult,
} from '../../../src/ui/search.js';

const lines = (texts: string[]): Line[] => texts.map((text, i) => ({ key: `${i}`, text }));

/** A source that counts the lines it was asked for. */
function counted(texts: string[]): LineSource & { read: number } {
  const all = lines(texts);
  const s = {
    read: 0,
    get length() {
      return all.length;
    },
    slice: (a: number, b: number) => all.slice(a, b),
    peek: (a: number, b: number) => {
      const out = all.slice(a, b);
      s.read += out.length;
      return out;
    },
  };
  return s;
}

function runToEnd(source: LineSource, query: string, from: number, direction: 1 | -1, budget = 1000): ScanResult {
  let r = continueScan(source, startScan(query, from, direction, source.length), budget);
  while (r.kind === 'more') r = continueScan(source, r.scan, budget);
  return r;
}

describe('matching', () => {
  it('is case-insensitive unless the query has a capital (smart case)', () => {
    expect(matchRanges('A needle, a Needle', searchPattern('needle'))).toEqual([
      [2, 8],
      [12, 18],
    ]);
    expect(matchRanges('A needle, a Needle', searchPattern('Needle'))).toEqual([[12, 18]]);
  });

  it('takes the query literally: regex characters are text', () => {
    expect(matchRanges('call f(x) or f.x*', searchPattern('f(x)'))).toEqual([[5, 9]]);
    expect(matchRanges('a.b axb', searchPattern('a.b'))).toEqual([[0, 3]]);
    expect(matchRanges('[x] done', searchPattern('[x]'))).toEqual([[0, 3]]);
  });
});

describe('scanning', () => {
  const texts = Array.from({ length: 100 }, (_, i) => (i === 10 || i === 70 ? `match ${i}` : `line ${i}`));

  it('finds the first match at or after the line, forward and backward, wrapping past an end', () => {
    const source = counted(texts);
    expect(runToEnd(source, 'match', 0, 1)).toEqual({ kind: 'found', line: 10, wrapped: false });
    expect(runToEnd(source, 'match', 10, 1)).toEqual({ kind: 'found', line: 10, wrapped: false });
    expect(runToEnd(source, 'match', 11, 1)).toEqual({ kind: 'found', line: 70, wrapped: false });
    expect(runToEnd(source, 'match', 71, 1)).toEqual({ kind: 'found', line: 10, wrapped: true });
    expect(runToEnd(source, 'match', 100, 1)).toEqual({ kind: 'found', line: 10, wrapped: true });
    expect(runToEnd(source, 'match', 69, -1)).toEqual({ kind: 'found', line: 10, wrapped: false });
    expect(runToEnd(source, 'match', 9, -1)).toEqual({ kind: 'found', line: 70, wrapped: true });
    expect(runToEnd(source, 'match', -1, -1)).toEqual({ kind: 'found', line: 70, wrapped: true });
    expect(runToEnd(source, 'nothing', 50, 1)).toEqual({ kind: 'none' });
    expect(runToEnd(counted([]), 'x', 0, 1)).toEqual({ kind: 'none' });
  });

  it('reads at most its budget per call, and every line once when nothing matches', () => {
    const source = counted(texts);
    let r = continueScan(source, startScan('nothing', 30, 1, source.length), 7);
    let calls = 1;
    while (r.kind === 'more') {
      expect(source.read).toBeLessThanOrEqual(7 * calls);
      r = continueScan(source, r.scan, 7);
      calls++;
    }
    expect(r).toEqual({ kind: 'none' });
    expect(source.read).toBe(100);
    expect(calls).toBe(Math.ceil(100 / 7));
  });

  it('goes on over a source that grew meanwhile (a stream): the scan ends after the lines it started with', () => {
    const grown = [...texts, 'match 100'];
    let r = continueScan(counted(texts), startScan('match', 71, 1, texts.length), 10);
    expect(r.kind).toBe('more');
    if (r.kind === 'more') r = continueScan(counted(grown), r.scan, 1000);
    expect(r).toEqual({ kind: 'found', line: 100, wrapped: false });
  });
});

describe('revealing a match', () => {
  it('leaves the view when the line is in sight, else puts it just below the top', () => {
    expect(revealLine(15, 10, 100, 20)).toBe(10);
    expect(revealLine(50, 10, 100, 20)).toBe(48);
    expect(revealLine(1, 10, 100, 20)).toBe(0);
    expect(revealLine(99, 0, 100, 20)).toBe(80);
  });
});

describe('n, N and Esc', () => {
  const key = (over: Partial<Key> = {}): Key => ({ ...({} as Key), ctrl: false, shift: false, meta: false, ...over });
  const done: KeyContext = {
    phase: 'DONE',
    mode: 'manual',
    pauseRequested: false,
    busy: false,
    awaiting: null,
    tab: 'conversation',
    typing: false,
  };
  const working: KeyContext = { ...done, phase: 'EXECUTE', busy: true, agentRound: true };

  it('are the search’s while one is on; otherwise n starts a new goal and Esc interrupts the agent', () => {
    expect(commandFor('n', key(), done)).toBe('new_run');
    expect(commandFor('n', key(), { ...done, searching: true })).toBe('search_next');
    expect(commandFor('N', key({ shift: true }), { ...done, searching: true })).toBe('search_prev');
    expect(commandFor('', key({ escape: true }), working)).toBe('interrupt');
    expect(commandFor('', key({ escape: true }), { ...working, searching: true })).toBe('search_clear');
    expect(commandFor('/', key(), working)).toBe('search');
    expect(commandFor('/', key(), { ...done, typing: true })).toBeNull();
    expect(commandFor('n', key(), { ...done, typing: true, searching: true })).toBeNull();
  });
});
