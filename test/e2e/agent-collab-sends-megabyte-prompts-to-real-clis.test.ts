/**
 * Prompts reach the real CLIs on their stdin, so no argument limit applies (an argument stops at 128 KB: a larger
 * prompt used to fail with `spawn E2BIG`). A 1 MB goal (read with --goal-file) and a 1 MB plan go to codex and
 * claude, on new sessions and resumed ones; the scripted server sees the marker on the last line of each.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { events, plan, readWork } from './agent-collab-run.js';
import { it } from './agent-collab-fixture.js';
import { describeRun } from './harness.js';
import { reply } from './llm-server.js';

/**
 * 1 MB, decimal: codex 0.169 refuses a prompt over 1 MiB characters ("Input exceeds the maximum length of 1048576
 * characters", exit 1; measured), and the prompt holds the template too.
 */
const MB = 1_000_000;

/** About `bytes` of text lines, then `marker` as the last line. */
function bigText(head: string, bytes: number, marker: string): string {
  const line = `${head}: a line of context that makes this text long, and nothing else ${'.'.repeat(20)}\n`;
  return `${line.repeat(Math.ceil(bytes / line.length))}${marker}\n`;
}

/** A plan over 1 MB whose last line is `marker`. */
function bigPlan(version: string, marker: string): string {
  return [
    `# Plan ${version}`,
    '',
    '## Steps',
    '1. [ ] Create a.txt with the text A',
    '',
    '## Notes',
    '',
    bigText(`notes ${version}`, MB, marker),
  ].join('\n');
}

describe('agent-collab sends prompts of any size to the real CLIs', () => {
  it('a 1 MB goal (--goal-file) reaches codex on a new thread and claude on a new session, to its last line', async ({
    ac,
    expect,
  }) => {
    const { server, env } = ac;
    const goalFile = path.join(env.home, 'goal.md');
    writeFileSync(goalFile, bigText('goal', MB, 'GOAL-ENDS-HERE'));
    server.openai.push(reply.text(plan('SMALL')));
    server.anthropic.push(reply.text('[APPROVED]'));

    const r = await ac.run(['run', '--goal-file', goalFile, '--auto'], 180_000);
    expect(r.code, describeRun(r)).toBe(3); // approved; execution waits for a go
    expect(events(r, 'verdict').map((e) => e.verdict)).toEqual(['APPROVED']);
    expect(server.openai.requests[0]!.rawBody.length).toBeGreaterThan(MB);
    expect(server.openai.text(0)).toContain('GOAL-ENDS-HERE');
    expect(server.anthropic.requests[0]!.rawBody.length).toBeGreaterThan(MB);
    expect(server.anthropic.text(0)).toContain('GOAL-ENDS-HERE');
  });

  it('a 1 MB plan reaches claude (new and resumed session) and codex (resumed thread), to its last line', async ({
    ac,
    expect,
  }) => {
    const { server, repo } = ac;
    server.openai.push(reply.text(bigPlan('V1', 'PLAN-V1-ENDS-HERE')));
    // With the first plan in its thread, codex 0.169 first compacts the thread (a request of its own), then asks.
    server.openai.handle((req) =>
      req.index === 0
        ? undefined
        : server.openai.text(req.index).includes('CHECKPOINT COMPACTION')
          ? reply.text('The planner wrote a long plan; the reviewer is looking at it.')
          : reply.text(bigPlan('V2', 'PLAN-V2-ENDS-HERE')),
    );
    server.anthropic.push(reply.text('[CHANGES_REQUIRED]\n\n1. Shorter, please.'), reply.text('[APPROVED]'));

    const r = await ac.run(['run', '--goal', 'a long plan', '--auto'], 180_000);
    expect(r.code, describeRun(r)).toBe(3);
    expect(events(r, 'verdict').map((e) => e.verdict)).toEqual(['CHANGES_REQUIRED', 'APPROVED']);
    expect(server.anthropic.requests).toHaveLength(2);
    expect(server.anthropic.text(0)).toContain('PLAN-V1-ENDS-HERE');
    expect(server.anthropic.text(1)).toContain('PLAN-V2-ENDS-HERE');
    expect(server.anthropic.requests[1]!.rawBody.length).toBeGreaterThan(MB);
    // the revision request on codex's resumed thread: the comments and the whole first plan
    const revision = server.openai.text();
    expect(revision).toContain('Shorter, please.');
    expect(revision).toContain('PLAN-V1-ENDS-HERE');
    expect(readWork(repo, 'plan.md')).toContain('PLAN-V2-ENDS-HERE');
  });
});
