import { z } from 'zod';
import { PHASES, type WorkflowState } from '../engine/types.js';

const role = z.enum(['planner', 'reviewer']);
const answer = z.string().optional();

export const actionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('refine'), message: z.string(), answer }),
  z.object({ kind: z.literal('write_plan'), answer }),
  z.object({ kind: z.literal('review'), reask: z.boolean().optional(), answer }),
  z.object({ kind: z.literal('respond'), answer }),
  z.object({ kind: z.literal('execute_step'), step: z.number().int(), attempt: z.number().int().min(1).optional(), feedback: z.string().optional(), answer }),
  z.object({ kind: z.literal('ask_test_command'), step: z.number().int(), answer }),
  z.object({ kind: z.literal('run_tests'), step: z.number().int(), attempt: z.number().int().min(1) }),
  z.object({ kind: z.literal('commit_step'), step: z.number().int(), summary: z.string(), allowSecrets: z.boolean().optional() }),
  z.object({ kind: z.literal('rollback_step'), step: z.number().int() }),
]);

const secretFinding = z.object({ file: z.string(), line: z.number().int(), kind: z.string() });

const failureKind = z.enum(['agent_error', 'infra', 'usage_limit', 'auth', 'timeout', 'idle', 'missing_binary', 'session_lost']);

export const awaitingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('goal') }),
  z.object({ kind: z.literal('go'), action: actionSchema }),
  z.object({ kind: z.literal('arbitration'), iteration: z.number().int() }),
  z.object({ kind: z.literal('manual_edit') }),
  z.object({ kind: z.literal('question'), role, text: z.string(), action: actionSchema }),
  z.object({ kind: z.literal('unclear_verdict'), text: z.string(), action: actionSchema }),
  z.object({
    kind: z.literal('failure'),
    role: role.nullable(),
    failure: z.union([failureKind, z.literal('engine')]),
    message: z.string(),
    action: actionSchema.nullable(),
  }),
  z.object({
    kind: z.literal('step_failed'),
    step: z.number().int(),
    attempt: z.number().int(),
    category: z.enum(['test_failure', 'agent_error', 'policy_block', 'timeout', 'infra']),
    message: z.string(),
    rolledBack: z.boolean(),
  }),
  z.object({ kind: z.literal('secret_found'), step: z.number().int(), summary: z.string(), findings: z.array(secretFinding) }),
  z.object({ kind: z.literal('commit_failed'), step: z.number().int(), summary: z.string(), message: z.string() }),
  z.object({ kind: z.literal('external_change'), file: z.enum(['plan', 'comments']), role, action: actionSchema, text: z.string() }),
]);

const count = z.number().int().min(0);

/** state.json, schemaVersion 1. Unknown keys are dropped. */
export const workflowStateSchema = z.object({
  schemaVersion: z.literal(1),
  runId: z.string(),
  phase: z.enum(PHASES),
  iteration: count,
  maxIterations: z.number().int().min(1),
  mode: z.enum(['manual', 'auto']),
  pauseRequested: z.boolean(),
  goal: z.string(),
  refinedGoal: z.string().nullable(),
  sessions: z.object({ planner: z.string().nullable(), reviewer: z.string().nullable() }),
  currentStep: z.number().int().nullable(),
  steps: z.array(
    z.object({ n: z.number().int(), title: z.string(), done: z.boolean(), commit: z.string().nullable().optional(), skipped: z.boolean().optional() }),
  ),
  stepRun: z
    .object({
      step: z.number().int(),
      attempt: z.number().int().min(1),
      baseTree: z.string().nullable(),
      startedAt: z.string(),
      testCommand: z.string().nullable(),
      denials: count,
      summary: z.string().nullable(),
      feedback: z.string().nullable(),
      testResult: z.enum(['passed', 'failed', 'none']).nullable(),
      tokensAtStart: z.number().min(0),
      costAtStart: z.number().min(0),
    })
    .nullable()
    .default(null),
  pendingCommand: z
    .object({
      id: z.string(),
      role: z.enum(['planner', 'reviewer', 'agent-collab']),
      command: z.string(),
      decision: z.enum(['block', 'confirm']),
      rule: z.string(),
      reason: z.string(),
    })
    .nullable()
    .default(null),
  allowedCommands: z.array(z.string()).default([]),
  testCommand: z.string().nullable().default(null),
  inflight: actionSchema.nullable(),
  awaiting: awaitingSchema.nullable(),
  unclearCount: count,
  lastVerdict: z.enum(['APPROVED', 'CHANGES_REQUIRED']).nullable(),
  usage: z.object({
    inputTokens: z.number().min(0),
    outputTokens: z.number().min(0),
    cachedTokens: z.number().min(0),
    costUsd: z.number().min(0),
    durationMs: z.number().min(0),
    calls: count,
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});

// Compile-time guard: the schema and the engine's WorkflowState must stay exactly the same type
// (mutual assignability alone would miss a forgotten optional field such as `reask?`).
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const _schemaMatchesWorkflowState: Equals<z.infer<typeof workflowStateSchema>, WorkflowState> = true;
void _schemaMatchesWorkflowState;
