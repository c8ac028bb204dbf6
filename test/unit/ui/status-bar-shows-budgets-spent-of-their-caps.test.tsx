// `[budget]` caps: the status bar shows each capped budget as spent / cap; the Status tab adds each role's model and
// effort.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const usage = { inputTokens: 30_000, outputTokens: 1_200, cachedTokens: 0, costUsd: 1.2, durationMs: 0, calls: 3 };

describe('budgets in the status bar', () => {
  it('shows spent / cap for each capped budget, and nothing for an uncapped one', async () => {
    const r = await renderApp({ phase: 'REVIEW', usage }, { budget: { tokens: 50_000, cost: 5, minutes: 0 } });
    await waitFor(() => expect(r.frame()).toContain('budget 31,200 / 50,000 tokens · $1.20 / $5.00'));
    expect(r.frame()).not.toContain(' min');
  });

  it('without caps: the plain totals', async () => {
    const r = await renderApp({ phase: 'REVIEW', usage });
    await waitFor(() => expect(r.frame()).toMatch(/REVIEW/));
    expect(r.frame()).not.toContain('budget');
  });

  it('the Status tab shows each role’s agent, model and effort, and the budgets spent / cap', async () => {
    const r = await renderApp(
      { phase: 'REVIEW', usage },
      {
        budget: { tokens: 50_000, cost: 0, minutes: 0 },
        roles: {
          planner: { agent: 'codex', model: 'gpt-5.5', effort: 'high' },
          reviewer: { agent: 'claude', model: '', effort: '' },
        },
      },
    );
    await r.press('5');
    await waitFor(() => expect(r.frame()).toContain('codex · model gpt-5.5 · effort high'));
    expect(r.frame()).toContain('claude · model (CLI default) · effort (CLI default)');
    expect(r.frame()).toMatch(/budget\s+31,200 \/ 50,000 tokens/);
  });
});
