/**
 * agent-collab itself (the BUILT `dist/cli.js`, headless with --json) driving the REAL codex and claude CLIs
 * against the scripted LLM server: the full plan → review → revise → approve → execute loop, restarts that resume
 * both sessions by id, a lost session answered with the recovery prompt, and the roles swapped (failures and hangs:
 * agent-collab-on-real-clis-when-the-model-fails-or-hangs). Run `npm run build` first (`npm test` does).
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { describe } from 'vitest';
import { it } from './agent-collab-fixture.js';
import { events, gitSubjects, plan, readState, readWork, writeState } from './agent-collab-run.js';
import { describeRun } from './harness.js';
import { reply, type ModelRequest } from './llm-server.js';
import { codexConfigToml } from './cli-env.js';

const GOAL = 'Add two text files a.txt and b.txt';

/** Phrases only the first prompt of each kind contains (prompts/02_write_plan.md, 03_review_plan.md). */
const WRITE_PLAN_PROMPT = 'Write the implementation plan for the goal below';
const FIRST_REVIEW_PROMPT = 'This is review round 1 of at most';
/** prompts/06_recover_context.md */
const RECOVERY_PROMPT = 'Your previous session could not be resumed';

/** The assistant turns a request carries (Anthropic `messages`, OpenAI `input` items), as text. */
function assistantTexts(req: ModelRequest): string[] {
  const body = req.body as { messages?: unknown[]; input?: unknown[] };
  const items = (req.protocol === 'anthropic' ? body.messages : body.input) ?? [];
  return items
    .map((m) => m as { role?: string; content?: unknown })
    .filter((m) => m.role === 'assistant')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

/** The sandbox a codex request ran with: its last `sandbox_mode` statement (resumed threads keep the earlier ones). */
function codexSandbox(req: ModelRequest): string | undefined {
  return [...req.rawBody.matchAll(/`sandbox_mode` is `([a-z-]+)`/g)].at(-1)?.[1];
}

/** Tool names offered to claude in a request. */
function claudeTools(req: ModelRequest): string[] {
  return ((req.body as { tools?: Array<{ name?: string }> }).tools ?? []).map((t) => t.name ?? '');
}

/** Deletes claude's saved transcript of `sessionId` under the test HOME, so `--resume` cannot find it. */
function deleteClaudeSession(home: string, sessionId: string): number {
  let removed = 0;
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.name.includes(sessionId)) {
        rmSync(p, { recursive: true, force: true });
        removed++;
      } else if (e.isDirectory()) walk(p);
    }
  };
  walk(path.join(home, '.claude'));
  return removed;
}

describe('agent-collab run on the real CLIs', () => {
  it('full loop: codex plans, claude asks for changes, codex revises, claude approves; both steps run and are committed', async ({
    ac,
    expect,
  }) => {
    const { server, repo } = ac;
    server.openai.push(
      reply.text(plan('PLAN-V1')),
      reply.text(plan('PLAN-V2')),
      reply.applyPatch('*** Begin Patch\n*** Add File: a.txt\n+A\n*** End Patch\n'),
      reply.text('Created a.txt.\nSummary: add a.txt'),
      reply.execCommand('printf "B\\n" > b.txt'),
      reply.text('Created b.txt.\nSummary: add b.txt'),
    );
    server.anthropic.push(
      // the reviewer tries to write a file: the read-only review does not even offer the tool
      reply.tool('Write', { file_path: path.join(repo, 'evil.txt'), content: 'no\n' }),
      reply.text('[CHANGES_REQUIRED]\n\n1. Say which text goes into each file.'),
      reply.text('[APPROVED]\n\nLooks good.'),
    );
    const r = await ac.run(['run', '--goal', GOAL, '--auto', '--auto-approve']);
    expect(r.code, describeRun(r)).toBe(0);

    // the verdicts, in order, and the final event
    expect(events(r, 'verdict').map((e) => [e.iteration, e.verdict])).toEqual([
      [1, 'CHANGES_REQUIRED'],
      [2, 'APPROVED'],
    ]);
    expect(events(r, 'done')).toEqual([expect.objectContaining({ phase: 'DONE', exit_code: 0 })]);

    // plan.md: the revised plan, approved, both steps ticked with their commits
    const planMd = readWork(repo, 'plan.md');
    expect(planMd).toMatch(/^---\n[\s\S]*\bstatus: approved\n[\s\S]*---\n/);
    expect(planMd).toContain('# Plan PLAN-V2');
    expect(planMd).not.toContain('PLAN-V1');
    expect(planMd).toMatch(/^1\. \[x\] Create a\.txt with the text A \(commit [0-9a-f]{7}\)$/m);
    expect(planMd).toMatch(/^2\. \[x\] Create b\.txt with the text B \(commit [0-9a-f]{7}\)$/m);
    // comments.md: the approval
    const commentsMd = readWork(repo, 'comments.md');
    expect(commentsMd).toMatch(/^---\n[\s\S]*\bstatus: APPROVED\n[\s\S]*---\n\n\[APPROVED\]\n/);
    // the steps' work, one commit each
    expect(readFileSync(path.join(repo, 'a.txt'), 'utf8')).toBe('A\n');
    expect(readFileSync(path.join(repo, 'b.txt'), 'utf8')).toBe('B\n');
    expect(gitSubjects(repo)).toEqual(['[Step 2] add b.txt', '[Step 1] add a.txt', 'initial']);
    const state = readState(repo);
    expect(state.phase).toBe('DONE');
    expect(state.steps.map((s) => s.done)).toEqual([true, true]);

    // read-only where it must be: claude's reviews had no Write/Edit/Bash (the scripted Write was refused),
    // codex planned in the read-only sandbox and executed in workspace-write
    expect(existsSync(path.join(repo, 'evil.txt'))).toBe(false);
    for (const req of server.anthropic.requests)
      expect(claudeTools(req)).not.toEqual(expect.arrayContaining(['Write']));
    for (const req of server.anthropic.requests) expect(claudeTools(req)).not.toContain('Bash');
    expect(server.anthropic.text(1)).toContain('No such tool available: Write');
    expect(server.openai.requests.map(codexSandbox)).toEqual([
      'read-only',
      'read-only',
      ...Array(4).fill('workspace-write'),
    ]);
    expect(server.openai.pending + server.anthropic.pending).toBe(0);
  });

  it('a restart resumes both sessions by id: each resumed request carries the earlier conversation', async ({
    ac,
    expect,
  }) => {
    const { server, repo } = ac;
    server.openai.push(reply.text(plan('PLAN-V1')), reply.text(plan('PLAN-V2')));
    server.anthropic.push(reply.text('[CHANGES_REQUIRED]\n\n1. REVIEW-ONE-COMMENT'), reply.text('[APPROVED]'));

    // without --auto every invocation lets one round through and exits 3, waiting for the next go
    const first = await ac.run(['run', '--goal', GOAL]);
    expect(first.code, describeRun(first)).toBe(3);
    expect(events(first, 'needs_human')).toEqual([expect.objectContaining({ kind: 'go', phase: 'REVIEW' })]);
    const codexSession = readState(repo).sessions.planner;
    expect(codexSession).toMatch(/^[0-9a-f-]{36}$/);

    const second = await ac.run(['run', '--resume']);
    expect(second.code, describeRun(second)).toBe(3);
    expect(events(second, 'verdict')).toEqual([expect.objectContaining({ verdict: 'CHANGES_REQUIRED', iteration: 1 })]);
    const claudeSession = readState(repo).sessions.reviewer;
    expect(claudeSession).toMatch(/^[0-9a-f-]{36}$/);

    const third = await ac.run(['run', '--resume']); // codex revises, in its first session
    expect(third.code, describeRun(third)).toBe(3);
    const fourth = await ac.run(['run', '--resume']); // claude reviews again, in its first session
    expect(fourth.code, describeRun(fourth)).toBe(3);
    expect(events(fourth, 'verdict')).toEqual([expect.objectContaining({ verdict: 'APPROVED', iteration: 2 })]);
    expect(events(fourth, 'needs_human')).toEqual([expect.objectContaining({ kind: 'go', phase: 'APPROVED' })]);

    // same session ids throughout
    expect(readState(repo).sessions).toEqual({ planner: codexSession, reviewer: claudeSession });
    // codex: the resumed request holds the first prompt and the first answer, then the new prompt
    expect(server.openai.requests).toHaveLength(2);
    expect(server.openai.text(0)).toContain(WRITE_PLAN_PROMPT);
    expect(server.openai.text(1)).toContain(WRITE_PLAN_PROMPT);
    expect(assistantTexts(server.openai.requests[1]!).join('\n')).toContain('# Plan PLAN-V1');
    expect(server.openai.text(1)).toContain('Revise the plan');
    // claude: the same
    expect(server.anthropic.requests).toHaveLength(2);
    expect(server.anthropic.text(1)).toContain(FIRST_REVIEW_PROMPT);
    expect(assistantTexts(server.anthropic.requests[1]!).join('\n')).toContain('REVIEW-ONE-COMMENT');
    expect(server.anthropic.text(1)).toContain('This is review round 2 of at most');
    // no session was lost on the way
    for (const r of [first, second, third, fourth]) expect(r.stdout).not.toContain('could not be resumed');
  });

  it('lost sessions (unknown codex thread id, deleted claude transcript) → new sessions started with the recovery prompt', async ({
    ac,
    expect,
  }) => {
    const { server, repo, env } = ac;
    server.openai.push(reply.text(plan('PLAN-V1')), reply.text(plan('PLAN-V2')));
    server.anthropic.push(reply.text('[CHANGES_REQUIRED]\n\n1. REVIEW-ONE-COMMENT'), reply.text('[APPROVED]'));
    expect((await ac.run(['run', '--goal', GOAL])).code).toBe(3); // codex writes the plan
    expect((await ac.run(['run', '--resume'])).code).toBe(3); // claude asks for changes

    const before = readState(repo);
    const lostThread = randomUUID();
    writeState(repo, { ...before, sessions: { ...before.sessions, planner: lostThread } });
    expect(deleteClaudeSession(env.home, before.sessions.reviewer!)).toBeGreaterThan(0);

    const r = await ac.run(['run', '--resume', '--auto']);
    expect(r.code, describeRun(r)).toBe(3); // approved; execution waits for a go
    const notices = events(r, 'notice').map((e) => String(e.message));
    expect(notices.filter((m) => m.includes('could not be resumed'))).toHaveLength(2);
    expect(events(r, 'verdict')).toEqual([expect.objectContaining({ verdict: 'APPROVED', iteration: 2 })]);

    // codex: the resume failed without a model request; the new session's first request is the recovery prompt
    expect(server.openai.requests).toHaveLength(2);
    const codexRecovery = server.openai.text(1);
    expect(codexRecovery).toContain(RECOVERY_PROMPT);
    expect(codexRecovery).toContain('# Plan PLAN-V1'); // plan.md
    expect(codexRecovery).toContain('REVIEW-ONE-COMMENT'); // comments.md
    expect(codexRecovery).toContain('Current phase: RESPOND');
    expect(codexRecovery).toContain('Revise the plan'); // the task of the turn
    expect(assistantTexts(server.openai.requests[1]!)).toEqual([]); // a new conversation
    // claude: the same for the review
    expect(server.anthropic.requests).toHaveLength(2);
    const claudeRecovery = server.anthropic.text(1);
    expect(claudeRecovery).toContain(RECOVERY_PROMPT);
    expect(claudeRecovery).toContain('# Plan PLAN-V2');
    expect(claudeRecovery).toContain('Current phase: REVIEW');
    expect(claudeRecovery).toContain('This is review round 2 of at most');
    expect(assistantTexts(server.anthropic.requests[1]!)).toEqual([]);

    // the run went on in the new sessions
    const after = readState(repo);
    expect(after.sessions.planner).toMatch(/^[0-9a-f-]{36}$/);
    expect(after.sessions.planner).not.toBe(lostThread);
    expect(after.sessions.planner).not.toBe(before.sessions.planner);
    expect(after.sessions.reviewer).toMatch(/^[0-9a-f-]{36}$/);
    expect(after.sessions.reviewer).not.toBe(before.sessions.reviewer);
    expect(readWork(repo, 'plan.md')).toContain('# Plan PLAN-V2');
    expect(readWork(repo, 'comments.md')).toMatch(/\n\[APPROVED\]\n/);
  });

  it('roles swapped: claude plans and executes, codex reviews (read-only), to approval and the commit', async ({
    ac,
    expect,
  }) => {
    const { server, repo, env } = ac;
    // Issue 19 (item 5): each role's model and effort reach its CLI's requests. codex's own default model is set to
    // another slug, so the requests' gpt-5.5 (whose tool set the scripted replies use) can only come from -m.
    writeFileSync(path.join(env.codexHome, 'config.toml'), codexConfigToml(server.url, { codexModel: 'gpt-5.4' }));
    ac.config({
      planner: 'claude',
      reviewer: 'codex',
      models: {
        planner_model: 'claude-opus-4-5',
        planner_effort: 'medium',
        reviewer_model: 'gpt-5.5',
        reviewer_effort: 'low',
      },
    });
    server.anthropic.push(
      reply.text(plan('PLAN-V1', ['Create c.txt with the text C'])),
      reply.text(plan('PLAN-V2', ['Create c.txt with the text C'])),
      reply.tool('Write', { file_path: path.join(repo, 'c.txt'), content: 'C\n' }),
      reply.text('Wrote c.txt.\nSummary: add c.txt'),
    );
    server.openai.push(
      // the reviewer tries to write a file: the read-only sandbox refuses it
      reply.execCommand('echo no > evil.txt'),
      reply.text('[CHANGES_REQUIRED]\n\n1. Name the file content.'),
      reply.text('[APPROVED]'),
    );
    const r = await ac.run(['run', '--goal', 'Add c.txt', '--auto', '--auto-approve']);
    expect(r.code, describeRun(r)).toBe(0);
    expect(events(r, 'verdict').map((e) => e.verdict)).toEqual(['CHANGES_REQUIRED', 'APPROVED']);
    expect(readWork(repo, 'plan.md')).toMatch(/status: approved[\s\S]*# Plan PLAN-V2[\s\S]*^1\. \[x\] Create c\.txt/m);
    expect(readWork(repo, 'comments.md')).toMatch(/status: APPROVED[\s\S]*\n\[APPROVED\]\n/);
    expect(readFileSync(path.join(repo, 'c.txt'), 'utf8')).toBe('C\n');
    expect(gitSubjects(repo)).toEqual(['[Step 1] add c.txt', 'initial']);
    expect(existsSync(path.join(repo, 'evil.txt'))).toBe(false);
    expect(server.openai.text(1)).toContain('Read-only file system');
    // codex reviewed in one read-only session (resumed for round 2); claude had Write only when executing
    expect(server.openai.requests.map(codexSandbox)).toEqual(['read-only', 'read-only', 'read-only']);
    expect(server.openai.text(2)).toContain(FIRST_REVIEW_PROMPT);
    expect(server.anthropic.requests.map((q) => claudeTools(q).includes('Write'))).toEqual([false, false, true, true]);
    expect(server.anthropic.text(1)).toContain(WRITE_PLAN_PROMPT); // claude revised in its first session
    // The requests say the model and effort (measured: claude sends `output_config.effort`, codex `reasoning.effort`).
    const bodies = (reqs: ModelRequest[]) => reqs.map((q) => q.body as Record<string, unknown>);
    for (const body of bodies(server.anthropic.requests))
      expect(body).toMatchObject({ model: 'claude-opus-4-5', output_config: { effort: 'medium' } });
    for (const body of bodies(server.openai.requests))
      expect(body).toMatchObject({ model: 'gpt-5.5', reasoning: { effort: 'low' } });
  });
});
