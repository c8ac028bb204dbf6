import { describe, expect, it } from 'vitest';
import {
  finishCodex,
  HOOK_TRUST_WARNING,
  newCodexState,
  translateCodexLine,
} from '../../../src/adapters/codex/translate.js';
import type { AgentEvent } from '../../../src/core/types.js';
import { replay } from './sample-lines.js';

function run(name: string): AgentEvent[] {
  const state = newCodexState();
  return [...replay(name, state, translateCodexLine), ...finishCodex(state)];
}

describe('codex run with --dangerously-bypass-hook-trust (real transcript)', () => {
  it('drops the two flag warnings: no error or warning events, the turn completes with its answer', () => {
    const events = run('codex-hook-trust.exec.jsonl');
    expect(events.filter((e) => e.type === 'error' || e.type === 'tool_result')).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['session', 'command', 'command', 'text', 'usage', 'done']);
    expect(events.at(-1)).toEqual({ type: 'done', sessionId: '01a20823-e898-7050-81cf-efc9927b3877', text: 'ok' });
  });

  it('keeps any other error item as a warning', () => {
    const state = newCodexState();
    const other = {
      type: 'item.completed',
      item: { id: 'item_0', type: 'error', message: `${HOOK_TRUST_WARNING} (changed)` },
    };
    expect(translateCodexLine(other, state)).toEqual([
      { type: 'tool_result', id: 'item_0', output: `codex warning: ${HOOK_TRUST_WARNING} (changed)`, isError: true },
    ]);
  });
});
