/**
 * The scripted LLM server works with the REAL `codex` and `claude` CLIs, run bare (no agent-collab code):
 * text answers, tool calls that change files, HTTP errors in each CLI's error shape, resumed sessions that carry
 * the earlier messages, and a hanging request that keeps the CLI silent until its process group is stopped.
 * Skipped (with the installer's reason) only when the pinned CLIs could not be installed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { it as base, describe } from 'vitest';
import { makeCliEnv, type CliEnv } from './cli-env.js';
import {
  describeRun,
  e2eClis,
  groupAlive,
  runCli,
  startCli,
  waitFor,
  type CliResult,
  type JsonLine,
} from './harness.js';
import { reply, startLlmServer, type LlmServer } from './llm-server.js';

const clis = await e2eClis();
const CLAUDE = clis.ok ? clis.claude : 'claude';
const CODEX = clis.ok ? clis.codex : 'codex';

interface E2e {
  server: LlmServer;
  env: CliEnv;
  /** A fresh git repo in the test's own root; the CLIs run with it as cwd. */
  repo: string;
  codex(args: string[], timeoutMs?: number): Promise<CliResult>;
  claude(prompt: string, flags?: string[], timeoutMs?: number): Promise<CliResult>;
}

/**
 * Each test gets its own server, HOME and repo, so tests are independent (they could run with describe.concurrent;
 * they run sequentially because CLI start-up is CPU-bound). Skipped with the installer's reason when the CLIs are
 * not available.
 */
const it = base.extend<{ e2e: E2e }>({
  e2e: async ({ skip }, use) => {
    if (!clis.ok) return skip(`real CLIs not installed: ${clis.reason}`);
    const server = await startLlmServer();
    const env = makeCliEnv({ serverUrl: server.url, binDir: clis.binDir });
    const repo = env.makeRepo();
    try {
      await use({
        server,
        env,
        repo,
        codex: (args, timeoutMs = 20_000) =>
          runCli(CODEX, ['exec', '--json', '-C', repo, ...args], { cwd: repo, env: env.env, timeoutMs }),
        // prompt first: variadic flags would swallow a following positional argument
        claude: (prompt, flags = [], timeoutMs = 20_000) =>
          runCli(CLAUDE, ['-p', prompt, '--output-format', 'stream-json', '--verbose', ...flags], {
            cwd: repo,
            env: env.env,
            timeoutMs,
          }),
      });
    } finally {
      await server.close();
      env.cleanup();
    }
  },
});

const ofType = (lines: JsonLine[], type: string) => lines.filter((l) => l.type === type);
const item = (l: JsonLine) => (l.item ?? {}) as Record<string, unknown>;

describe('codex exec --json against the scripted Responses server', () => {
  it('gets a scripted text answer: thread.started, agent_message, turn.completed', async ({
    e2e: { server, codex },
    expect,
  }) => {
    server.openai.push(reply.text('Scripted hello from the test server', { thinking: 'thinking it over' }));
    const r = await codex(['Say hello please']);
    expect(r.code, describeRun(r)).toBe(0);
    const started = ofType(r.lines, 'thread.started');
    expect(started).toHaveLength(1);
    expect(started[0]!.thread_id).toMatch(/^[0-9a-f-]{36}$/);
    const messages = ofType(r.lines, 'item.completed')
      .map(item)
      .filter((i) => i.type === 'agent_message');
    expect(messages.map((m) => m.text)).toEqual(['Scripted hello from the test server']);
    expect(
      ofType(r.lines, 'item.completed')
        .map(item)
        .some((i) => i.type === 'reasoning' && i.text === 'thinking it over'),
    ).toBe(true);
    const completed = ofType(r.lines, 'turn.completed');
    expect(completed).toHaveLength(1);
    expect((completed[0]!.usage as Record<string, number>).output_tokens).toBeGreaterThan(0);
    // the server saw the prompt, with the model and streaming from the local provider config
    expect(server.openai.requests).toHaveLength(1);
    expect(server.openai.requests[0]!.model).toBe('gpt-5.5');
    expect(server.openai.requests[0]!.stream).toBe(true);
    expect(server.openai.text(0)).toContain('Say hello please');
  });

  it('runs a scripted exec_command that creates a file (workspace-write)', async ({
    e2e: { server, repo, codex },
    expect,
  }) => {
    server.openai.push(reply.execCommand('echo hi > f.txt'), reply.text('created f.txt'));
    const r = await codex(['--sandbox', 'workspace-write', 'Create f.txt']);
    expect(r.code, describeRun(r)).toBe(0);
    expect(readFileSync(path.join(repo, 'f.txt'), 'utf8')).toBe('hi\n');
    const cmd = ofType(r.lines, 'item.completed')
      .map(item)
      .find((i) => i.type === 'command_execution');
    expect(cmd).toMatchObject({ exit_code: 0, status: 'completed' });
    expect(String(cmd?.command)).toContain('echo hi > f.txt');
    expect(
      ofType(r.lines, 'item.completed')
        .map(item)
        .filter((i) => i.type === 'agent_message')
        .map((i) => i.text),
    ).toEqual(['created f.txt']);
    // the follow-up request carries the tool output back to the model
    expect(server.openai.requests).toHaveLength(2);
    expect(JSON.stringify(server.openai.requests[1]!.body)).toContain('function_call_output');
  });

  it('applies a scripted apply_patch custom tool call (workspace-write)', async ({
    e2e: { server, repo, codex },
    expect,
  }) => {
    server.openai.push(
      reply.applyPatch('*** Begin Patch\n*** Add File: notes.md\n+patched by the script\n*** End Patch\n'),
      reply.text('ok'),
    );
    const r = await codex(['--sandbox', 'workspace-write', 'Add notes.md']);
    expect(r.code, describeRun(r)).toBe(0);
    expect(readFileSync(path.join(repo, 'notes.md'), 'utf8')).toBe('patched by the script\n');
    const change = ofType(r.lines, 'item.completed')
      .map(item)
      .find((i) => i.type === 'file_change');
    expect(change).toMatchObject({
      status: 'completed',
      changes: [{ path: path.join(repo, 'notes.md'), kind: 'add' }],
    });
  });

  it.for([
    [500, reply.error(500, 'scripted server failure')],
    [429, reply.rateLimited('scripted rate limit', 30)],
  ] as const)(
    'ends an HTTP %i in error + turn.failed, exit 1 (provider retries 0)',
    async ([status, err], { e2e: { server, codex }, expect }) => {
      server.openai.push(err);
      const r = await codex(['Say hello']);
      expect(r.code, describeRun(r)).toBe(1);
      const errors = ofType(r.lines, 'error');
      const failed = ofType(r.lines, 'turn.failed');
      expect(errors).toHaveLength(1);
      expect(failed).toHaveLength(1);
      expect(typeof errors[0]!.message).toBe('string');
      expect((failed[0]!.error as Record<string, unknown>).message).toBe(errors[0]!.message);
      if (status === 429) expect(errors[0]!.message).toMatch(/429/);
      expect(server.openai.requests).toHaveLength(1); // no retries
    },
  );

  it('resumes a session by thread id; the resumed request carries the earlier messages', async ({
    e2e: { server, env, repo, codex },
    expect,
  }) => {
    server.openai.push(reply.text('first answer: PLAN-A'), reply.text('second answer'));
    const first = await codex(['first prompt: make a plan']);
    expect(first.code, describeRun(first)).toBe(0);
    const threadId = ofType(first.lines, 'thread.started')[0]!.thread_id as string;
    const second = await runCli(CODEX, ['exec', 'resume', '--json', threadId, 'second prompt: review it'], {
      cwd: repo,
      env: env.env,
      timeoutMs: 20_000,
    });
    expect(second.code, describeRun(second)).toBe(0);
    expect(ofType(second.lines, 'thread.started')[0]!.thread_id).toBe(threadId);
    const resumed = server.openai.text(1);
    expect(resumed).toContain('first prompt: make a plan');
    expect(resumed).toContain('first answer: PLAN-A');
    expect(resumed).toContain('second prompt: review it');
  });

  it('stays silent while the request hangs, until its process group is stopped', async ({
    e2e: { server, env, repo },
    expect,
  }) => {
    server.openai.push(reply.hang(true));
    const run = startCli(CODEX, ['exec', '--json', '-C', repo, 'hang please'], {
      cwd: repo,
      env: env.env,
      timeoutMs: 20_000,
    });
    expect(await waitFor(() => server.hanging === 1, 10_000)).toBe(true);
    const linesAtHang = run.lines.length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(run.lines.length).toBe(linesAtHang); // nothing new while the model request hangs
    expect(run.lines.some((l) => l.type === 'turn.completed' || l.type === 'turn.failed')).toBe(false);
    const r = await run.stop();
    expect(r.signal ?? r.code).not.toBe(0);
    expect(groupAlive(run.pid)).toBe(false);
    expect(await waitFor(() => server.hanging === 0, 5000)).toBe(true);
  });
});

describe('claude -p --output-format stream-json against the scripted Messages server', () => {
  it('gets a scripted text answer: system/init, assistant text, result', async ({
    e2e: { server, repo, claude },
    expect,
  }) => {
    server.anthropic.push(reply.text('Scripted hello from the test server', { thinking: 'thinking it over' }));
    const r = await claude('Say hello please');
    expect(r.code, describeRun(r)).toBe(0);
    const init = r.lines.find((l) => l.type === 'system' && l.subtype === 'init');
    expect(init).toBeDefined();
    expect(init!.cwd).toBe(repo);
    expect(typeof init!.session_id).toBe('string');
    const blocks = ofType(r.lines, 'assistant').flatMap(
      (l) => ((l.message as Record<string, unknown>).content as Array<Record<string, unknown>>) ?? [],
    );
    expect(blocks.map((b) => b.type)).toEqual(['thinking', 'text']);
    const result = r.lines.at(-1)!;
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'Scripted hello from the test server',
      session_id: init!.session_id,
    });
    expect((result.usage as Record<string, number>).output_tokens).toBeGreaterThan(0);
    expect(server.anthropic.requests).toHaveLength(1);
    expect(server.anthropic.requests[0]!.stream).toBe(true);
    expect(server.anthropic.text(0)).toContain('Say hello please');
  });

  it('runs scripted Write and Bash tool calls that create files (acceptEdits)', async ({
    e2e: { server, repo, claude },
    expect,
  }) => {
    server.anthropic.push(
      reply.tool('Write', { file_path: path.join(repo, 'w.txt'), content: 'written\n' }),
      reply.tool('Bash', { command: 'echo hi > b.txt', description: 'write b.txt' }),
      reply.text('both files created'),
    );
    const r = await claude('Create two files', ['--permission-mode', 'acceptEdits']);
    expect(r.code, describeRun(r)).toBe(0);
    expect(readFileSync(path.join(repo, 'w.txt'), 'utf8')).toBe('written\n');
    expect(readFileSync(path.join(repo, 'b.txt'), 'utf8')).toBe('hi\n');
    const toolResults = ofType(r.lines, 'user').flatMap(
      (l) => (l.message as Record<string, unknown>).content as Array<Record<string, unknown>>,
    );
    expect(toolResults.map((b) => [b.type, b.is_error ?? false])).toEqual([
      ['tool_result', false],
      ['tool_result', false],
    ]);
    expect(r.lines.at(-1)).toMatchObject({
      type: 'result',
      is_error: false,
      result: 'both files created',
      num_turns: 3,
    });
    expect(r.lines.at(-1)!.permission_denials).toEqual([]);
    // each tool result went back to the model in the next request
    expect(server.anthropic.requests).toHaveLength(3);
    expect(JSON.stringify(server.anthropic.requests[2]!.body)).toContain('tool_result');
  });

  it('ends an HTTP 400 in result.is_error with api_error_status, exit 1', async ({
    e2e: { server, claude },
    expect,
  }) => {
    server.anthropic.push(reply.error(400, 'scripted invalid request'));
    const r = await claude('Say hello');
    expect(r.code, describeRun(r)).toBe(1);
    expect(r.lines.at(-1)).toMatchObject({ type: 'result', is_error: true, api_error_status: 400 });
    expect(String(r.lines.at(-1)!.result)).toContain('scripted invalid request');
    expect(server.anthropic.requests).toHaveLength(1);
  });

  it.for([
    [500, reply.finalError(500, 'scripted server failure')],
    [429, reply.rateLimited('scripted rate limit', 30, true)],
  ] as const)(
    'ends a non-retryable HTTP %i (x-should-retry: false) in result.is_error, exit 1',
    async ([status, err], { e2e: { server, claude }, expect }) => {
      server.anthropic.push(err);
      const r = await claude('Say hello');
      expect(r.code, describeRun(r)).toBe(1);
      expect(r.lines.at(-1)).toMatchObject({ type: 'result', is_error: true, api_error_status: status });
      expect(server.anthropic.requests).toHaveLength(1);
    },
  );

  it.for([
    [500, reply.error(500, 'scripted server failure')],
    [429, reply.rateLimited('scripted rate limit', 1)],
  ] as const)(
    'retries an HTTP %i once (system/api_retry), then succeeds',
    async ([status, err], { e2e: { server, claude }, expect }) => {
      server.anthropic.push(err, reply.text('answer after retry'));
      const r = await claude('Say hello');
      expect(r.code, describeRun(r)).toBe(0);
      const retries = r.lines.filter((l) => l.type === 'system' && l.subtype === 'api_retry');
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatchObject({ attempt: 1, error_status: status });
      expect(r.lines.at(-1)).toMatchObject({ type: 'result', is_error: false, result: 'answer after retry' });
      expect(server.anthropic.requests).toHaveLength(2);
    },
  );

  it('resumes a session by id from the same cwd; the resumed request carries the earlier messages', async ({
    e2e: { server, claude },
    expect,
  }) => {
    server.anthropic.push(reply.text('first answer: PLAN-A'), reply.text('second answer'));
    const first = await claude('first prompt: make a plan');
    expect(first.code, describeRun(first)).toBe(0);
    const sessionId = first.lines.at(-1)!.session_id as string;
    const second = await claude('second prompt: review it', ['--resume', sessionId]);
    expect(second.code, describeRun(second)).toBe(0);
    expect(second.lines.at(-1)).toMatchObject({ type: 'result', result: 'second answer', session_id: sessionId });
    const resumed = server.anthropic.text(1);
    expect(resumed).toContain('first prompt: make a plan');
    expect(resumed).toContain('first answer: PLAN-A');
    expect(resumed).toContain('second prompt: review it');
  });

  it('stays silent while the request hangs, until its process group is stopped', async ({
    e2e: { server, env, repo },
    expect,
  }) => {
    server.anthropic.push(reply.hang(true));
    const run = startCli(CLAUDE, ['-p', 'hang please', '--output-format', 'stream-json', '--verbose'], {
      cwd: repo,
      env: env.env,
      timeoutMs: 20_000,
    });
    expect(await waitFor(() => server.hanging === 1, 10_000)).toBe(true);
    const linesAtHang = run.lines.length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(run.lines.length).toBe(linesAtHang);
    expect(run.lines.some((l) => l.type === 'result')).toBe(false);
    const r = await run.stop();
    expect(r.signal ?? r.code).not.toBe(0);
    expect(groupAlive(run.pid)).toBe(false);
    expect(await waitFor(() => server.hanging === 0, 5000)).toBe(true);
  });
});
