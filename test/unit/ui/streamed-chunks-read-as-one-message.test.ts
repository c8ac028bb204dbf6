// An agent's message streamed in chunks (one `text` event per line, as codex and claude stream) reads as one
// message under one header: 150 streamed lines take about 150 screen lines, not 300.
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/types.js';
import { conversationLines } from '../../../src/ui/line-source.js';
import { entriesOf, initialView, reduceAll, type ViewAction } from '../../../src/ui/view-model.js';
import { running } from '../../helpers/states.js';

const text = (role: 'planner' | 'reviewer', t: string): ViewAction => ({
  type: 'agent_event',
  role,
  event: { type: 'text', text: t } as AgentEvent,
});

function screen(actions: ViewAction[], chunked = false): string[] {
  let v = initialView(running('WRITE_PLAN', { kind: 'write_plan' }));
  if (chunked) for (const a of actions) v = reduceAll(v, [a]);
  else v = reduceAll(v, actions);
  return conversationLines(entriesOf(v), 80, false).map((l) => l.text);
}

describe('a streamed message', () => {
  it('takes one header and one line per streamed line, whether the lines come in one batch or one by one', () => {
    const lines = Array.from({ length: 150 }, (_, i) => text('planner', `line ${i}`));
    for (const chunked of [false, true]) {
      const shown = screen(lines, chunked);
      expect(shown).toHaveLength(151);
      expect(shown.filter((l) => l === 'planner')).toHaveLength(1);
      expect(shown.at(-1)).toBe('  line 149');
    }
  });

  it('starts a new header when the other agent speaks or the agent does something else in between', () => {
    const tool: ViewAction = {
      type: 'agent_event',
      role: 'planner',
      event: { type: 'tool_call', name: 'Read', input: 'a.ts' } as AgentEvent,
    };
    const shown = screen([
      text('planner', 'a'),
      text('planner', 'b'),
      text('reviewer', 'c'),
      tool,
      text('planner', 'd'),
    ]);
    expect(shown).toEqual([
      'planner',
      '  a',
      '  b',
      'reviewer',
      '  c',
      expect.stringContaining('Read'),
      'planner',
      '  d',
    ]);
  });
});
