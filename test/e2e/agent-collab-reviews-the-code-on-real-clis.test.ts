/**
 * The code review (issue 19, `[review] code = "final"`) on the REAL CLIs against the scripted LLM server: after the
 * last step claude is shown the run's diff, asks for a change; codex turns it into a fix step and makes it; the fix is
 * committed as `[Step 2]`, and the second code review approves: DONE. Run `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { it } from './agent-collab-fixture.js';
import { events, gitSubjects, plan, readState, readWork } from './agent-collab-run.js';
import { describeRun } from './harness.js';
import { reply } from './llm-server.js';

describe('code review on the real CLIs', () => {
  it('claude reviews the diff and asks for a change, codex makes it, it is committed, the second review approves', async ({
    ac,
    expect,
  }) => {
    const { server, repo } = ac;
    ac.config({ codeReview: 'final' });
    server.openai.push(
      reply.text(plan('PLAN-V1', ['Create a.txt with the text A'])),
      reply.applyPatch('*** Begin Patch\n*** Add File: a.txt\n+A\n*** End Patch\n'),
      reply.text('Created a.txt.\nSummary: add a.txt'),
      // the code review's comments turned into a fix step (a read-only turn), then the fix step itself
      reply.text('## Fix steps\n1. End the text in a.txt with a period\n'),
      reply.execCommand('printf "A.\\n" > a.txt'),
      reply.text('a.txt now ends with a period.\nSummary: end a.txt with a period'),
    );
    server.anthropic.push(
      reply.text('[APPROVED]\n\n## Comments\n1. None.'),
      reply.text('[CHANGES_REQUIRED]\n\n## Comments\n1. a.txt must read "A." with a period.'),
      reply.text('[APPROVED]\n\n## Comments\n1. None.'),
    );
    const r = await ac.run(['run', '--goal', 'Create a.txt with the text A.', '--auto', '--auto-approve'], 150_000);
    expect(r.code, describeRun(r)).toBe(0);

    expect(events(r, 'code_review').map((e) => [e.round, e.step, e.verdict])).toEqual([
      [1, null, 'CHANGES_REQUIRED'],
      [2, null, 'APPROVED'],
    ]);
    expect(events(r, 'done')).toEqual([expect.objectContaining({ phase: 'DONE', exit_code: 0 })]);
    expect(gitSubjects(repo)).toEqual(['[Step 2] end a.txt with a period', '[Step 1] add a.txt', 'initial']);
    expect(readFileSync(path.join(repo, 'a.txt'), 'utf8')).toBe('A.\n');
    expect(readWork(repo, 'plan.md')).toMatch(
      /^2\. \[x\] End the text in a\.txt with a period \(from code review, round 1\) \(commit [0-9a-f]{7}\)$/m,
    );
    expect(readState(repo).phase).toBe('DONE');

    // The run report (issue 19, item 7): SUCCESS, both step commits as git has them, the file, the code review.
    const [report] = events(r, 'report');
    expect(report).toMatchObject({ status: 'SUCCESS', ending: 'done', steps_done: 2, steps_total: 2, commits: 2 });
    const text = readFileSync(String(report?.path), 'utf8');
    expect(text).toContain('\nstatus: "SUCCESS"\n');
    const stepCommits = execFileSync('git', ['log', '--format=%H %s'], { cwd: repo, encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter((l) => l.includes(' [Step '));
    expect(stepCommits).toHaveLength(2);
    for (const line of stepCommits) expect(text).toContain(`| \`${line.slice(0, 40)}\` | ${line.slice(41)} |`);
    // Added by step 1 (1 line), changed by the fix step (1 line for 1): the lines summed over the commits.
    expect(text).toMatch(/^\| a\.txt \| added \| 2 \| 1 \|$/m);
    expect(text).toContain('- **Rounds**: 2 verdict(s)');
    expect(text).toContain('**Outcome**: approved by the reviewer');
    expect(text).toMatch(/^\| planner \(and executor\) \| codex \|/m);
    expect(text).toMatch(/^\| reviewer \| claude \|/m);

    // claude was shown the diff of the run, then the diff with the fix; codex got the comments for the fix step
    expect(server.anthropic.text(1)).toContain('+A');
    expect(server.anthropic.text(1)).toContain('a.txt');
    expect(server.anthropic.text(2)).toContain('+A.');
    expect(server.openai.text(3)).toContain('a.txt must read');
    expect(server.openai.pending + server.anthropic.pending).toBe(0);
  }, 180_000);
});
