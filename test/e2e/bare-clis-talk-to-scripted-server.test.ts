/**
 * The scripted LLM server works with the REAL `codex` and `claude` CLIs, run bare (no agent-collab code): one run
 * per CLI with a thinking block, tool calls that change files and a text answer, checked in each CLI's JSON lines.
 * Kept to one CLI start per CLI (it was 18): this is the harness's own smoke test, and what it once checked case by
 * case is proven through agent-collab by the other e2e files on the same server and CLIs — HTTP errors and hangs in
 * agent-collab-on-real-clis-when-the-model-fails-or-hangs / -stops-cli-retries-, resumed sessions carrying the
 * earlier messages in agent-collab-on-real-clis (the CLIs' measured behaviour: /work/shared/cli-facts and
 * test/e2e/README.md). Skipped (with the installer's reason) only when the pinned CLIs could not be installed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { it as base } from 'vitest';
import { makeCliEnv } from './cli-env.js';
import { describeRun, e2eClis, runCli, type CliResult, type JsonLine } from './harness.js';
import { reply, startLlmServer, type LlmServer } from './llm-server.js';

const clis = await e2eClis();
const CLAUDE = clis.ok ? clis.claude : 'claude';
const CODEX = clis.ok ? clis.codex : 'codex';

interface E2e {
  server: LlmServer;
  /** A fresh git repo in the test's own root; the CLIs run with it as cwd. */
  repo: string;
  codex(args: string[], timeoutMs?: number): Promise<CliResult>;
  claude(prompt: string, flags?: string[], timeoutMs?: number): Promise<CliResult>;
}

/**
 * Each test gets its own server, HOME and repo. Skipped with the installer's reason when the CLIs are not
 * available.
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

it('codex exec --json: exec_command and apply_patch change files, then a text answer with its reasoning', async ({
  e2e: { server, repo, codex },
  expect,
}) => {
  server.openai.push(
    reply.execCommand('echo hi > f.txt'),
    reply.applyPatch('*** Begin Patch\n*** Add File: notes.md\n+patched by the script\n*** End Patch\n'),
    reply.text('Scripted hello from the test server', { thinking: 'thinking it over' }),
  );
  const r = await codex(['--sandbox', 'workspace-write', 'Create f.txt and notes.md']);
  expect(r.code, describeRun(r)).toBe(0);
  expect(readFileSync(path.join(repo, 'f.txt'), 'utf8')).toBe('hi\n');
  expect(readFileSync(path.join(repo, 'notes.md'), 'utf8')).toBe('patched by the script\n');
  const started = ofType(r.lines, 'thread.started');
  expect(started).toHaveLength(1);
  expect(started[0]!.thread_id).toMatch(/^[0-9a-f-]{36}$/);
  const items = ofType(r.lines, 'item.completed').map(item);
  const cmd = items.find((i) => i.type === 'command_execution');
  expect(cmd).toMatchObject({ exit_code: 0, status: 'completed' });
  expect(String(cmd?.command)).toContain('echo hi > f.txt');
  expect(items.find((i) => i.type === 'file_change')).toMatchObject({
    status: 'completed',
    changes: [{ path: path.join(repo, 'notes.md'), kind: 'add' }],
  });
  expect(items.some((i) => i.type === 'reasoning' && i.text === 'thinking it over')).toBe(true);
  expect(items.filter((i) => i.type === 'agent_message').map((m) => m.text)).toEqual([
    'Scripted hello from the test server',
  ]);
  const completed = ofType(r.lines, 'turn.completed');
  expect(completed).toHaveLength(1);
  expect((completed[0]!.usage as Record<string, number>).output_tokens).toBeGreaterThan(0);
  // the server saw the prompt with the model and streaming from the local provider config; each follow-up request
  // carried the tool output back to the model
  expect(server.openai.requests).toHaveLength(3);
  expect(server.openai.requests[0]!.model).toBe('gpt-5.5');
  expect(server.openai.requests[0]!.stream).toBe(true);
  expect(server.openai.text(0)).toContain('Create f.txt and notes.md');
  expect(JSON.stringify(server.openai.requests[1]!.body)).toContain('function_call_output');
});

it('claude -p stream-json: Write and Bash change files, then a text answer with its thinking', async ({
  e2e: { server, repo, claude },
  expect,
}) => {
  server.anthropic.push(
    reply.tool('Write', { file_path: path.join(repo, 'w.txt'), content: 'written\n' }),
    reply.tool('Bash', { command: 'echo hi > b.txt', description: 'write b.txt' }),
    reply.text('both files created', { thinking: 'thinking it over' }),
  );
  const r = await claude('Create two files', ['--permission-mode', 'acceptEdits']);
  expect(r.code, describeRun(r)).toBe(0);
  expect(readFileSync(path.join(repo, 'w.txt'), 'utf8')).toBe('written\n');
  expect(readFileSync(path.join(repo, 'b.txt'), 'utf8')).toBe('hi\n');
  const init = r.lines.find((l) => l.type === 'system' && l.subtype === 'init');
  expect(init).toBeDefined();
  expect(init!.cwd).toBe(repo);
  expect(typeof init!.session_id).toBe('string');
  const toolResults = ofType(r.lines, 'user').flatMap(
    (l) => (l.message as Record<string, unknown>).content as Array<Record<string, unknown>>,
  );
  expect(toolResults.map((b) => [b.type, b.is_error ?? false])).toEqual([
    ['tool_result', false],
    ['tool_result', false],
  ]);
  const blocks = ofType(r.lines, 'assistant').flatMap(
    (l) => ((l.message as Record<string, unknown>).content as Array<Record<string, unknown>>) ?? [],
  );
  expect(blocks.map((b) => b.type).slice(-2)).toEqual(['thinking', 'text']);
  const result = r.lines.at(-1)!;
  expect(result).toMatchObject({
    type: 'result',
    subtype: 'success',
    is_error: false,
    result: 'both files created',
    num_turns: 3,
    session_id: init!.session_id,
  });
  expect(result.permission_denials).toEqual([]);
  expect((result.usage as Record<string, number>).output_tokens).toBeGreaterThan(0);
  // each tool result went back to the model in the next request
  expect(server.anthropic.requests).toHaveLength(3);
  expect(server.anthropic.requests[0]!.stream).toBe(true);
  expect(server.anthropic.text(0)).toContain('Create two files');
  expect(JSON.stringify(server.anthropic.requests[2]!.body)).toContain('tool_result');
});
