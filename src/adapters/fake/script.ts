// Scripts for the fake agent: which answer to give to which turn. Loaded from JSON (validated) or built in code.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { UserError } from '../../persistence/errors.js';
import type { AgentEvent, FailureKind, Role, TurnKind } from '../../engine/types.js';

export { DEMO_SCRIPT } from './demo-script.js';

export interface FakeAction {
  /** The answer. When missing, the default answer for the turn's kind is used. */
  text?: string;
  /** Prefixes the answer with the marker line `[APPROVED]` / `[CHANGES_REQUIRED]`. */
  verdict?: 'APPROVED' | 'CHANGES_REQUIRED';
  /** Files to write, relative to turn.cwd; only in 'workspace-write' turns. Missing = the kind's default. */
  writeFiles?: Record<string, string>;
  fail?: { kind: FailureKind; message: string; resetAt?: string };
  /** Never finishes until stop(); the stream then ends without `done`. */
  hang?: boolean;
  question?: string;
  delayMs?: number;
  /** Extra events emitted right after `session`. */
  events?: AgentEvent[];
  /** A long output stream after `events`, generated as it goes (see FakeStream). */
  stream?: FakeStream;
  /**
   * Shell commands to run after `events`, each put to agent-collab's command hook first exactly as the real CLIs
   * do; a command runs (`sh -c`, in the turn's cwd, in any access mode) only when the hook allowed it.
   */
  run?: string | string[];
}

/**
 * `lines` text events, one line each: `text` with `{n}` replaced by the line's number (0, 1, …). They arrive
 * `perChunk` at a time, one chunk per event-loop turn, as a CLI's output arrives in pipe chunks.
 */
export interface FakeStream {
  lines: number;
  perChunk?: number;
  text?: string;
}

export interface FakeRule {
  when?: { role?: Role; kind?: TurnKind; iteration?: number; step?: number; resumed?: boolean };
  /** The rule applies this many times, then is skipped. */
  times?: number;
  do: FakeAction;
}

export interface FakeScript {
  rules: FakeRule[];
  /** resume() of a session this agent does not know fails with `session_lost`. */
  loseSessions?: boolean;
}

const failureKind = z.enum(['agent_error', 'infra', 'usage_limit', 'auth', 'timeout', 'idle', 'missing_binary', 'session_lost']);

const eventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session'), sessionId: z.string() }).strict(),
  z.object({ type: z.literal('text'), text: z.string() }).strict(),
  z.object({ type: z.literal('reasoning'), text: z.string() }).strict(),
  z.object({ type: z.literal('tool_call'), id: z.string().optional(), name: z.string(), input: z.unknown() }).strict(),
  z.object({ type: z.literal('tool_result'), id: z.string().optional(), output: z.string(), isError: z.boolean() }).strict(),
  z
    .object({
      type: z.literal('command'),
      id: z.string().optional(),
      command: z.string(),
      status: z.enum(['started', 'completed', 'failed']),
      exitCode: z.number().int().nullable().optional(),
      output: z.string().optional(),
    })
    .strict(),
  z.object({ type: z.literal('file_change'), path: z.string(), kind: z.enum(['add', 'update', 'delete']) }).strict(),
  z.object({ type: z.literal('question'), text: z.string() }).strict(),
  z
    .object({
      type: z.literal('usage'),
      inputTokens: z.number(),
      outputTokens: z.number(),
      cachedTokens: z.number().optional(),
      costUsd: z.number().optional(),
      durationMs: z.number().optional(),
    })
    .strict(),
  z.object({ type: z.literal('error'), kind: failureKind, message: z.string(), resetAt: z.string().optional() }).strict(),
  z.object({ type: z.literal('done'), sessionId: z.string().nullable(), text: z.string() }).strict(),
]);

const actionSchema = z
  .object({
    text: z.string().optional(),
    verdict: z.enum(['APPROVED', 'CHANGES_REQUIRED']).optional(),
    writeFiles: z.record(z.string(), z.string()).optional(),
    fail: z.object({ kind: failureKind, message: z.string(), resetAt: z.string().optional() }).strict().optional(),
    hang: z.boolean().optional(),
    question: z.string().optional(),
    delayMs: z.number().int().min(0).optional(),
    events: z.array(eventSchema).optional(),
    stream: z
      .object({ lines: z.number().int().min(0), perChunk: z.number().int().min(1).optional(), text: z.string().optional() })
      .strict()
      .optional(),
    run: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
  })
  .strict();

const ruleSchema = z
  .object({
    when: z
      .object({
        role: z.enum(['planner', 'reviewer']).optional(),
        kind: z.enum(['refine', 'write_plan', 'review', 'respond', 'execute_step']).optional(),
        iteration: z.number().int().optional(),
        step: z.number().int().optional(),
        resumed: z.boolean().optional(),
      })
      .strict()
      .optional(),
    times: z.number().int().min(1).optional(),
    do: actionSchema,
  })
  .strict();

export const fakeScriptSchema = z.object({ rules: z.array(ruleSchema), loseSessions: z.boolean().optional() }).strict();

// Compile-time check that what the schema accepts is a FakeScript.
const _schemaMatchesType: (s: z.infer<typeof fakeScriptSchema>) => FakeScript = (s) => s;

/** A copy of `script` where every answer (scripted or default) takes `ms` milliseconds, e.g. for a watchable demo. */
export function withDelay(script: FakeScript, ms: number): FakeScript {
  return {
    ...script,
    rules: [...script.rules.map((r) => ({ ...r, do: { ...r.do, delayMs: r.do.delayMs ?? ms } })), { do: { delayMs: ms } }],
  };
}

/** Reads and validates a JSON fake script; any problem is a one-line UserError. */
export async function loadFakeScript(file: string): Promise<FakeScript> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(code === 'ENOENT' ? `fake script ${file} not found` : `cannot read fake script ${file}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new UserError(`fake script ${file} is not valid JSON: ${oneLine((err as Error).message)}`);
  }
  const parsed = fakeScriptSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : '(top level)';
    throw new UserError(`fake script ${file} is invalid at ${where}: ${oneLine(issue?.message ?? 'invalid')}`);
  }
  return parsed.data;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
