import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../src/adapters/fake/script.js';
import { parseSteps } from '../../src/core/plan-steps.js';
import type { AgentEvent, AgentTurn, TurnKind } from '../../src/core/types.js';
import { parseVerdict } from '../../src/core/verdict.js';

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const types = (events: AgentEvent[]) => events.map((e) => e.type);
const doneText = (events: AgentEvent[]) => {
  const done = events.find((e) => e.type === 'done');
  return done?.type === 'done' ? done.text : null;
};

async function turn(
  kind: TurnKind,
  over: Partial<AgentTurn> & { step?: number; iteration?: number } = {},
): Promise<AgentTurn> {
  const role = kind === 'review' ? 'reviewer' : 'planner';
  return {
    prompt:
      over.prompt ?? "The user's goal:\n<goal>\nAdd a greeting module\n</goal>\n<message>\nkeep it tiny\n</message>",
    cwd: over.cwd ?? (await mkdtemp(path.join(tmpdir(), 'fake-'))),
    access: over.access ?? (kind === 'execute_step' ? 'workspace-write' : 'read-only'),
    meta: { role, kind, iteration: over.iteration ?? 1, step: over.step ?? (kind === 'execute_step' ? 1 : null) },
  };
}

const empty: FakeScript = { rules: [] };

afterEach(() => {
  vi.useRealTimers();
});

describe('FakeAgent defaults', () => {
  it('emits session, text, usage, done for a turn and records it', async () => {
    const agent = new FakeAgent('planner', empty, { sessionPrefix: 'p' });
    const t = await turn('refine');
    const events = await collect(agent.start(t));
    expect(types(events)).toEqual(['session', 'text', 'usage', 'done']);
    const session = events[0];
    expect(session?.type === 'session' && session.sessionId).toMatch(/^p-[0-9a-f]{8}$/);
    expect(doneText(events)).toContain('Add a greeting module');
    expect(doneText(events)).toContain('keep it tiny');
    expect(events[2]).toMatchObject({ type: 'usage', costUsd: 0 });
    expect(events[3]).toMatchObject({ type: 'done', sessionId: session?.type === 'session' ? session.sessionId : '' });
    expect(agent.turns).toEqual([
      { method: 'start', sessionId: session?.type === 'session' && session.sessionId, turn: t },
    ]);
  });

  it('writes a valid two-step plan for write_plan and respond', async () => {
    const agent = new FakeAgent('planner', empty);
    for (const kind of ['write_plan', 'respond'] as const) {
      const text = doneText(await collect(agent.start(await turn(kind)))) ?? '';
      expect(text).toMatch(/^# Task: Add a greeting module\n\n## Goal\n/);
      expect(parseSteps(text)).toHaveLength(2);
    }
  });

  it('approves in review', async () => {
    const text = doneText(await collect(new FakeAgent('r', empty).start(await turn('review'))));
    expect(parseVerdict(text ?? '')).toEqual({ kind: 'approved' });
  });

  it('writes fake-step-N.txt when executing a step in workspace-write', async () => {
    const t = await turn('execute_step', { step: 2 });
    const events = await collect(new FakeAgent('p', empty).start(t));
    expect(types(events)).toEqual(['session', 'text', 'file_change', 'usage', 'done']);
    expect(events[2]).toEqual({ type: 'file_change', path: 'fake-step-2.txt', kind: 'add' });
    expect(doneText(events)).toBe('Summary: add fake-step-2.txt');
    expect(existsSync(path.join(t.cwd, 'fake-step-2.txt'))).toBe(true);
  });

  it('refuses to write in a read-only turn', async () => {
    const t = await turn('execute_step', { access: 'read-only' });
    const events = await collect(new FakeAgent('p', empty).start(t));
    expect(events).toContainEqual({
      type: 'tool_result',
      output: 'read-only: refused to write fake-step-1.txt',
      isError: true,
    });
    expect(types(events)).not.toContain('file_change');
    expect(existsSync(path.join(t.cwd, 'fake-step-1.txt'))).toBe(false);
  });
});

describe('FakeAgent scripted actions', () => {
  it('uses the first matching rule; verdict prefixes the marker line', async () => {
    const agent = new FakeAgent('r', {
      rules: [
        { when: { kind: 'review', iteration: 2 }, do: { verdict: 'APPROVED' } },
        { when: { kind: 'review' }, do: { verdict: 'CHANGES_REQUIRED', text: '## Comments\n1. Fix it.' } },
        { when: { kind: 'review' }, do: { text: 'never used' } },
      ],
    });
    expect(doneText(await collect(agent.start(await turn('review'))))).toBe(
      '[CHANGES_REQUIRED]\n\n## Comments\n1. Fix it.',
    );
    expect(parseVerdict(doneText(await collect(agent.start(await turn('review', { iteration: 2 })))) ?? '')).toEqual({
      kind: 'approved',
    });
  });

  it('matches on role, step and resumed', async () => {
    const agent = new FakeAgent('x', {
      rules: [
        { when: { role: 'reviewer' }, do: { text: 'reviewer' } },
        { when: { kind: 'execute_step', step: 2 }, do: { text: 'step two', writeFiles: {} } },
        { when: { resumed: true }, do: { text: 'resumed' } },
      ],
    });
    expect(doneText(await collect(agent.start(await turn('review'))))).toBe('reviewer');
    expect(doneText(await collect(agent.start(await turn('execute_step', { step: 2 }))))).toBe('step two');
    expect(doneText(await collect(agent.start(await turn('execute_step', { step: 1 }))))).toBe(
      'Summary: add fake-step-1.txt',
    );
    expect(doneText(await collect(agent.resume('s-1', await turn('write_plan'))))).toBe('resumed');
  });

  it('applies a rule `times` times, then skips it', async () => {
    const agent = new FakeAgent('r', {
      rules: [
        { when: { kind: 'review' }, times: 2, do: { verdict: 'CHANGES_REQUIRED' } },
        { when: { kind: 'review' }, do: { verdict: 'APPROVED' } },
      ],
    });
    const verdicts = [];
    for (let i = 0; i < 4; i++)
      verdicts.push(parseVerdict(doneText(await collect(agent.start(await turn('review')))) ?? '').kind);
    expect(verdicts).toEqual(['changes_required', 'changes_required', 'approved', 'approved']);
  });

  it('writes scripted files, reporting add or update, and refuses paths outside cwd', async () => {
    const t = await turn('execute_step');
    await writeFile(path.join(t.cwd, 'old.txt'), 'old');
    const agent = new FakeAgent('p', {
      rules: [{ do: { writeFiles: { 'src/new.txt': 'new', 'old.txt': 'changed', '../escape.txt': 'no' } } }],
    });
    const events = await collect(agent.start(t));
    expect(events.filter((e) => e.type === 'file_change')).toEqual([
      { type: 'file_change', path: 'src/new.txt', kind: 'add' },
      { type: 'file_change', path: 'old.txt', kind: 'update' },
    ]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'tool_result', isError: true }));
    expect(await readFile(path.join(t.cwd, 'src/new.txt'), 'utf8')).toBe('new');
    expect(await readFile(path.join(t.cwd, 'old.txt'), 'utf8')).toBe('changed');
    expect(existsSync(path.join(t.cwd, '..', 'escape.txt'))).toBe(false);
    expect(doneText(events)).toBe('Summary: add src/new.txt, old.txt, ../escape.txt');
  });

  it('emits extra events right after the session', async () => {
    const agent = new FakeAgent('p', { rules: [{ do: { text: 'ok', events: [{ type: 'reasoning', text: 'hmm' }] } }] });
    expect(types(await collect(agent.start(await turn('refine'))))).toEqual([
      'session',
      'reasoning',
      'text',
      'usage',
      'done',
    ]);
  });

  it('asks a question: question event, then done with the question as text', async () => {
    const agent = new FakeAgent('p', { rules: [{ do: { question: 'Which file?' } }] });
    const events = await collect(agent.start(await turn('execute_step')));
    expect(types(events)).toEqual(['session', 'question', 'usage', 'done']);
    expect(events[1]).toEqual({ type: 'question', text: 'Which file?' });
    expect(doneText(events)).toBe('Which file?');
  });

  it('fails with an error event and no done', async () => {
    const agent = new FakeAgent('p', {
      rules: [{ times: 1, do: { fail: { kind: 'usage_limit', message: 'limit reached' } } }],
    });
    const events = await collect(agent.start(await turn('write_plan')));
    expect(types(events)).toEqual(['session', 'error']);
    expect(events[1]).toEqual({ type: 'error', kind: 'usage_limit', message: 'limit reached' });
    expect(types(await collect(agent.start(await turn('write_plan'))))).toContain('done');
  });

  it('a missing binary fails before any session', async () => {
    const agent = new FakeAgent('p', {
      rules: [{ do: { fail: { kind: 'missing_binary', message: 'codex not found' } } }],
    });
    expect(types(await collect(agent.start(await turn('refine'))))).toEqual(['error']);
  });

  it('waits delayMs before answering', async () => {
    const agent = new FakeAgent('p', { rules: [{ do: { delayMs: 80, text: 'late' } }] });
    const t = await turn('refine');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let answered = false;
    const events = collect(agent.start(t)).finally(() => (answered = true));
    await vi.advanceTimersByTimeAsync(79);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(doneText(await events)).toBe('late');
  });

  it('hangs until stop(), then ends without done', async () => {
    const agent = new FakeAgent('p', { rules: [{ times: 1, do: { hang: true } }] });
    const pending = collect(agent.start(await turn('refine')));
    await new Promise((r) => setTimeout(r, 30));
    await agent.stop();
    expect(types(await pending)).toEqual(['session']);
    await agent.stop(); // safe when idle
    expect(types(await collect(agent.start(await turn('refine'))))).toContain('done');
  });

  it('stop() also ends a delayed turn', async () => {
    const agent = new FakeAgent('p', { rules: [{ do: { delayMs: 60_000 } }] });
    const pending = collect(agent.start(await turn('refine')));
    await new Promise((r) => setTimeout(r, 20));
    await agent.stop();
    expect(types(await pending)).toEqual(['session']);
  });
});

describe('FakeAgent resume', () => {
  it('resumes its own session with the same id', async () => {
    const agent = new FakeAgent('p', empty);
    const first = await collect(agent.start(await turn('write_plan')));
    const id = first[0]?.type === 'session' ? first[0].sessionId : '';
    const events = await collect(agent.resume(id, await turn('respond')));
    expect(events[0]).toEqual({ type: 'session', sessionId: id });
    expect(events.at(-1)).toMatchObject({ type: 'done', sessionId: id });
    expect(agent.turns.map((r) => [r.method, r.sessionId])).toEqual([
      ['start', id],
      ['resume', id],
    ]);
  });

  it('accepts an unknown session by default (a restarted process)', async () => {
    const events = await collect(new FakeAgent('p', empty).resume('old-session', await turn('review')));
    expect(events.at(-1)).toMatchObject({ type: 'done', sessionId: 'old-session' });
  });

  it('with loseSessions, an unknown session fails with session_lost; known ones still resume', async () => {
    const agent = new FakeAgent('p', { rules: [], loseSessions: true }, { knownSessions: ['kept'] });
    const lost = await collect(agent.resume('gone', await turn('review')));
    expect(lost).toEqual([{ type: 'error', kind: 'session_lost', message: 'session gone not found' }]);
    expect(types(await collect(agent.resume('kept', await turn('review'))))).toContain('done');
    const first = await collect(agent.start(await turn('refine')));
    const id = first[0]?.type === 'session' ? first[0].sessionId : '';
    expect(types(await collect(agent.resume(id, await turn('refine'))))).toContain('done');
    expect(agent.turns.map((r) => r.method)).toEqual(['resume', 'resume', 'start', 'resume']);
  });
});
