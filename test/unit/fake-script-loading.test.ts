import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import { DEMO_SCRIPT, loadFakeScript, withDelay } from '../../src/adapters/fake/script.js';
import type { FakeScript } from '../../src/adapters/fake/script.js';
import { parseSteps } from '../../src/core/plan-steps.js';
import type { AgentEvent, AgentTurn, TurnKind } from '../../src/core/types.js';
import { parseVerdict } from '../../src/core/verdict.js';
import { UserError } from '../../src/core/errors.js';

async function scriptFile(content: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'script-')), 'script.json');
  await writeFile(file, content);
  return file;
}

async function answer(
  agent: FakeAgent,
  kind: TurnKind,
  cwd: string,
  step: number | null = null,
): Promise<AgentEvent[]> {
  const turn: AgentTurn = {
    prompt: '<goal>\nAdd a greeting module and its test\n</goal>',
    cwd,
    access: kind === 'execute_step' ? 'workspace-write' : 'read-only',
    meta: { role: kind === 'review' ? 'reviewer' : 'planner', kind, iteration: 1, step },
  };
  const out: AgentEvent[] = [];
  for await (const e of agent.start(turn)) out.push(e);
  return out;
}

const textOf = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'done' ? [e.text] : []))[0] ?? '';

describe('loadFakeScript', () => {
  it('loads a valid script', async () => {
    const script: FakeScript = {
      loseSessions: true,
      rules: [
        { when: { kind: 'review', iteration: 1 }, times: 1, do: { verdict: 'CHANGES_REQUIRED', text: '1. x' } },
        { do: { events: [{ type: 'command', command: 'ls', status: 'completed', exitCode: 0 }], delayMs: 5 } },
        { when: { role: 'planner', resumed: true }, do: { fail: { kind: 'auth', message: 'log in' } } },
      ],
    };
    expect(await loadFakeScript(await scriptFile(JSON.stringify(script)))).toEqual(script);
  });

  it.each([
    ['a missing file', null, /^fake script .* not found$/],
    ['bad JSON', '{ rules: ', /^fake script .* is not valid JSON: /],
    ['no rules', '{}', /is invalid at rules: /],
    ['a bad verdict', '{"rules":[{"do":{"verdict":"approved"}}]}', /is invalid at rules\.0\.do\.verdict: /],
    ['an unknown key', '{"rules":[{"do":{"txt":"x"}}]}', /is invalid at rules\.0\.do: /],
    ['a bad failure kind', '{"rules":[{"do":{"fail":{"kind":"boom","message":"m"}}}]}', /rules\.0\.do\.fail\.kind/],
    ['a bad event', '{"rules":[{"do":{"events":[{"type":"nope"}]}}]}', /rules\.0\.do\.events\.0/],
    ['times 0', '{"rules":[{"times":0,"do":{}}]}', /rules\.0\.times/],
  ])('rejects %s with a one-line UserError', async (_name, content, message) => {
    const file = content === null ? path.join(tmpdir(), 'no-such-dir-xyz', 'script.json') : await scriptFile(content);
    const err: unknown = await loadFakeScript(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('DEMO_SCRIPT', () => {
  it('asks for changes once, then approves; the revised plan answers both comments', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'demo-'));
    const planner = new FakeAgent('fake-planner', DEMO_SCRIPT);
    const reviewer = new FakeAgent('fake-reviewer', DEMO_SCRIPT);
    expect(parseSteps(textOf(await answer(planner, 'write_plan', cwd)))).toHaveLength(2);
    const first = textOf(await answer(reviewer, 'review', cwd));
    expect(parseVerdict(first)).toEqual({ kind: 'changes_required', marker: true });
    expect(first).toMatch(/\n1\. .+\n2\. .+/);
    const revised = textOf(await answer(planner, 'respond', cwd));
    expect(parseSteps(revised)).toHaveLength(3);
    expect(revised).toContain('## Responses to review');
    expect(parseVerdict(textOf(await answer(reviewer, 'review', cwd)))).toEqual({ kind: 'approved' });
  });

  it('writes files in each step and ends with a Summary: line', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'demo-'));
    const planner = new FakeAgent('fake-planner', DEMO_SCRIPT);
    for (const step of [1, 2, 3]) {
      const events = await answer(planner, 'execute_step', cwd, step);
      expect(events.filter((e) => e.type === 'file_change').length).toBeGreaterThan(0);
      expect(textOf(events).split('\n').at(-1)).toMatch(/^Summary: .{5,60}$/);
    }
  });

  it('withDelay slows every answer down, scripted or default', () => {
    const slow = withDelay(DEMO_SCRIPT, 50);
    expect(slow.rules.every((r) => r.do.delayMs === 50)).toBe(true);
    expect(slow.rules.at(-1)).toEqual({ do: { delayMs: 50 } });
    expect(DEMO_SCRIPT.rules.some((r) => r.do.delayMs !== undefined)).toBe(false);
  });
});
