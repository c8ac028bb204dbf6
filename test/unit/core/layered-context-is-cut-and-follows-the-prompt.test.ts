// Layered context (the queue's context.md files): each layer under its source, project first; each file and the
// whole cut to their limits with a line saying how much was left out; appended after the prompt, never before it.
import { describe, expect, it } from 'vitest';
import { CONTEXT_LIMITS, renderContext, withContext } from '../../../src/core/layered-context.js';

describe('layered context', () => {
  it('puts each layer under its source, in order, and leaves out empty ones', () => {
    const text = renderContext([
      { source: '.agent-collab/context.md', text: 'project\n' },
      { source: 'src/empty/context.md', text: '  \n' },
      { source: 'src/api/context.md', text: 'api' },
    ]);
    expect(text).toBe('### .agent-collab/context.md\n\nproject\n\n### src/api/context.md\n\napi');
    expect(renderContext([{ source: 'a', text: '' }])).toBe('');
  });

  it('cuts a file over the per-file limit and the whole over the total, saying how much was left out', () => {
    const big = 'x'.repeat(CONTEXT_LIMITS.perFileChars + 10);
    expect(renderContext([{ source: 'a', text: big }])).toContain('… (10 more characters left out)');
    const many = Array.from({ length: 4 }, (_, n) => ({
      source: `d${n}`,
      text: 'y'.repeat(CONTEXT_LIMITS.perFileChars),
    }));
    const all = renderContext(many);
    expect(all.length).toBeLessThan(CONTEXT_LIMITS.totalChars + 100);
    expect(all).toMatch(/more characters left out\)$/);
  });

  it('follows the prompt, and leaves a prompt without context as it was', () => {
    expect(withContext('TASK\n', '')).toBe('TASK\n');
    const p = withContext('TASK\n', 'CTX');
    expect(p.indexOf('TASK')).toBe(0);
    expect(p.indexOf('CTX')).toBeGreaterThan(p.indexOf('## Context from the project'));
  });
});
