// Issue 18, item 11: `.agent-collab/` deleted, or state.json replaced, while a run is under way stops the run with
// one line (exit 3, "a file changed outside"), instead of quietly recreating the files and going on. agent-collab
// writes back what it holds copies of; someone else's state.json is kept aside, never overwritten.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import type { Agent } from '../../../src/core/types.js';
import { runHeadless } from '../../../src/modes/headless.js';
import { meddlingReviewer } from '../../helpers/meddling-agent.js';
import { gitLog, sink, tempRepo } from '../../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

async function runWith(reviewer: (work: string) => Agent) {
  const repo = tempRepo('[safety]\nsandbox = "off"\n');
  cleanup = repo.cleanup;
  const work = path.join(repo.dir, '.agent-collab');
  const out = sink();
  const code = await runHeadless({
    cwd: repo.dir,
    homeDir: repo.home,
    goal: 'g',
    auto: true,
    autoApprove: true,
    json: true,
    resume: 'fresh',
    agents: { planner: new FakeAgent('planner', { rules: [] }), reviewer: reviewer(work) },
    stdout: out,
    stderr: sink(),
  });
  return { repo, work, code, events: out.lines() };
}

describe('agent-collab’s files changed behind the run’s back', () => {
  it('.agent-collab/ deleted during a turn: the run stops with one line, state.json and plan.md are written back', async () => {
    const r = await runWith((work) => meddlingReviewer(() => rmSync(work, { recursive: true, force: true })));
    expect(r.code).toBe(3);
    const error = r.events.find((e) => e.event === 'error');
    expect(String(error?.message)).toMatch(/^\.agent-collab\/ was deleted during the run; .*the run stopped/);
    expect(String(error?.message)).not.toContain('\n');
    expect(r.events.at(-1)).toMatchObject({ event: 'done', exit_code: 3 });
    // It did not go on: no review written, nothing approved, nothing executed.
    expect(existsSync(path.join(r.work, 'comments.md'))).toBe(false);
    expect(r.events.some((e) => e.event === 'phase' && e.to === 'APPROVED')).toBe(false);
    expect(gitLog(r.repo.dir)).toEqual(['initial']);
    // What agent-collab holds copies of is back, so the run can be resumed.
    const state = JSON.parse(readFileSync(path.join(r.work, 'state.json'), 'utf8')) as { phase: string };
    expect(state.phase).toBe('REVIEW');
    expect(readFileSync(path.join(r.work, 'plan.md'), 'utf8')).toContain('## Steps');
  });

  it('state.json replaced during a turn: the run stops; the other file is kept aside, agent-collab’s state is back', async () => {
    const theirs = '{"someone": "else"}\n';
    const r = await runWith((work) => meddlingReviewer(() => writeFileSync(path.join(work, 'state.json'), theirs)));
    expect(r.code).toBe(3);
    const error = r.events.find((e) => e.event === 'error');
    expect(String(error?.message)).toMatch(
      /state\.json was replaced by another program during the run; that file is kept as /,
    );
    const aside = readdirSync(r.work).filter((n) => n.startsWith('state.json.outside-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(r.work, aside[0]!), 'utf8')).toBe(theirs);
    const state = JSON.parse(readFileSync(path.join(r.work, 'state.json'), 'utf8')) as { phase: string };
    expect(state.phase).toBe('REVIEW');
    expect(existsSync(path.join(r.work, 'comments.md'))).toBe(false);
  });

  it('a run nobody meddles with is not stopped (archiving and every save are its own)', async () => {
    const r = await runWith(
      () => new FakeAgent('reviewer', { rules: [{ when: { kind: 'review' }, do: { verdict: 'APPROVED' } }] }),
    );
    expect(r.events.filter((e) => e.event === 'error')).toEqual([]);
    expect(r.code).toBe(0);
    expect(gitLog(r.repo.dir).filter((s) => s.startsWith('[Step'))).toHaveLength(2);
  });
});
