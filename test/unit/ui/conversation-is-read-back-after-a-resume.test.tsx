// A resumed run's conversation tab starts with what the agents said before the restart, read back from debug.log
// (`<ISO> [planner|reviewer] <event JSON>` lines): only this run's, only well-formed events, in order.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { conversationHistory, historyActions } from '../../../src/ui/conversation-history.js';
import { renderApp, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const RUN_START = '2026-11-23T10:00:00.000Z';
const line = (at: string, source: string, event: unknown): string =>
  `${at} [${source}] ${typeof event === 'string' ? event : JSON.stringify(event)}`;

const DEBUG_LOG = [
  line('2026-11-23T09:59:59.999Z', 'planner', { type: 'text', text: 'from the run before' }),
  line('2026-11-23T10:00:01.000Z', 'planner/codex', {
    type: 'item.completed',
    item: { type: 'agent_message', text: 'raw CLI line' },
  }),
  line('2026-11-23T10:00:01.100Z', 'planner', { type: 'session', sessionId: 's1' }),
  line('2026-11-23T10:00:01.200Z', 'planner', { type: 'text', text: '# Plan\n\n## Steps\n1. [ ] Add a.txt' }),
  line('2026-11-23T10:00:01.300Z', 'engine', 'rejected go: not now'),
  line('2026-11-23T10:00:01.400Z', 'planner', { type: 'usage', inputTokens: 10, outputTokens: 5 }),
  line('2026-11-23T10:00:02.000Z', 'reviewer', { type: 'command', id: 'c1', command: 'ls', status: 'started' }),
  line('2026-11-23T10:00:02.100Z', 'reviewer', {
    type: 'command',
    id: 'c1',
    command: 'ls',
    status: 'completed',
    exitCode: 0,
    output: 'a.txt',
  }),
  line('2026-11-23T10:00:02.200Z', 'reviewer', '{"type":"text","text":"cut off'),
  line('2026-11-23T10:00:02.300Z', 'reviewer', { type: 'text', text: 42 }),
  line('2026-11-23T10:00:02.400Z', 'reviewer', { type: 'tool_result', output: 'x' }),
  line('2026-11-23T10:00:02.500Z', 'reviewer', {
    type: 'text',
    text: '[CHANGES_REQUIRED] Say which text goes into a.txt.',
  }),
  '',
].join('\n');

describe('the conversation read back from debug.log', () => {
  it('keeps this run’s agent events in order and skips other runs, raw CLI lines, engine lines, usage and damaged events', () => {
    const actions = historyActions(DEBUG_LOG, RUN_START);
    expect(actions.map((a) => (a.type === 'agent_event' ? `${a.role} ${a.event.type}` : a.type))).toEqual([
      'planner text',
      'reviewer command',
      'reviewer command',
      'reviewer text',
    ]);
  });

  it('reads the end of the file; no file is no history', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-history-'));
    try {
      const file = path.join(dir, 'debug.log');
      expect(await conversationHistory(file, RUN_START)).toEqual([]);
      writeFileSync(file, DEBUG_LOG);
      expect(await conversationHistory(file, RUN_START)).toHaveLength(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the conversation tab shows it first, under a line that says where it came from, then what happens next', async () => {
    const r = await renderApp({ phase: 'RESPOND', iteration: 1 }, { history: historyActions(DEBUG_LOG, RUN_START) });
    await waitFor(() => expect(r.frame()).toContain('Earlier in this run (read back from debug.log):'));
    expect(r.frame()).toContain('$ reviewer: ls (exit 0)');
    expect(r.frame()).toContain('Say which text goes into a.txt.');
    expect(r.frame()).not.toContain('from the run before');
    r.engine.emit({ type: 'agent_event', role: 'planner', event: { type: 'text', text: 'Revised: a.txt holds A.' } });
    await waitFor(() => expect(r.frame()).toContain('Revised: a.txt holds A.'));
    const frame = r.frame();
    expect(frame.indexOf('Earlier in this run')).toBeLessThan(frame.indexOf('Say which text goes into a.txt.'));
    expect(frame.indexOf('Say which text goes into a.txt.')).toBeLessThan(frame.indexOf('Revised: a.txt holds A.'));
    // The resumed answer is a message of its own, under its own header, after a line that marks the resume.
    expect(frame).toMatch(/── resumed ──\nplanner\n {2}Revised: a\.txt holds A\./);
  });
});
