import * as z from './zod.js';
import { FAILURE_KINDS, PHASES, type WorkflowState } from '../core/types.js';
import { BUDGETS } from '../core/budget.js';

const role = z.enum(['planner', 'reviewer']);
const answer = z.optional(z.string());
const int = z.int();
const positive = z.int().check(z.minimum(1));
const count = z.int().check(z.minimum(0));
const amount = z.number().check(z.minimum(0));
const usageSchema = z.object({
  inputTokens: amount,
  outputTokens: amount,
  cachedTokens: amount,
  costUsd: amount,
  durationMs: amount,
  calls: count,
});

/** The person's message after interrupting the round (Esc). */
const note = z.optional(z.string());

export const actionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('refine'), message: z.string(), answer, note }),
  z.object({ kind: z.literal('write_plan'), answer, note }),
  z.object({ kind: z.literal('review'), reask: z.optional(z.boolean()), answer, note }),
  z.object({ kind: z.literal('respond'), answer, note }),
  z.object({
    kind: z.literal('execute_step'),
    step: int,
    attempt: z.optional(positive),
    feedback: z.optional(z.string()),
    review: z.optional(z.string()),
    answer,
    note,
  }),
  z.object({ kind: z.literal('code_review'), step: z.nullable(int), reask: z.optional(z.boolean()), answer, note }),
  z.object({ kind: z.literal('code_fix'), answer, note }),
  z.object({ kind: z.literal('ask_test_command'), step: int, answer, note }),
  z.object({ kind: z.literal('run_tests'), step: int, attempt: positive }),
  z.object({ kind: z.literal('commit_step'), step: int, summary: z.string(), allowSecrets: z.optional(z.boolean()) }),
  z.object({ kind: z.literal('rollback_step'), step: int }),
]);

const budgetKind = z.enum(BUDGETS);
const perBudget = z.partialRecord(budgetKind, amount);

const ledgerStatus = z.enum(['open', 'addressed', 'disputed', 'resolved', 'withdrawn']);
const ledgerReview = z.enum(['plan', 'code']);

const secretFinding = z.object({ file: z.string(), line: int, kind: z.string() });

const failureKind = z.enum(FAILURE_KINDS);

export const awaitingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('goal') }),
  z.object({ kind: z.literal('go'), action: actionSchema }),
  z.object({ kind: z.literal('arbitration'), iteration: int }),
  z.object({ kind: z.literal('manual_edit') }),
  z.object({
    kind: z.literal('code_review_cap'),
    round: int,
    step: z.nullable(int),
    noFixSteps: z.optional(z.string()),
  }),
  z.object({ kind: z.literal('code_edit'), step: z.nullable(int) }),
  z.object({
    kind: z.literal('disagreement'),
    review: ledgerReview,
    step: z.nullable(int),
    round: count,
    reason: z.string(),
    disputes: z.array(
      z.object({
        id: z.string(),
        status: ledgerStatus,
        reviewer: z.string(),
        planner: z.nullable(z.string()),
        disputed: z.boolean(),
      }),
    ),
  }),
  z.object({ kind: z.literal('question'), role, text: z.string(), action: actionSchema }),
  z.object({ kind: z.literal('interrupted'), role, action: actionSchema }),
  z.object({ kind: z.literal('unclear_verdict'), text: z.string(), action: actionSchema }),
  z.object({
    kind: z.literal('failure'),
    role: z.nullable(role),
    failure: z.union([failureKind, z.literal('engine')]),
    message: z.string(),
    action: z.nullable(actionSchema),
  }),
  z.object({
    kind: z.literal('step_failed'),
    step: int,
    attempt: int,
    category: z.enum(['test_failure', 'agent_error', 'policy_block', 'timeout', 'infra']),
    message: z.string(),
    rolledBack: z.boolean(),
  }),
  z.object({ kind: z.literal('secret_found'), step: int, summary: z.string(), findings: z.array(secretFinding) }),
  z.object({ kind: z.literal('commit_failed'), step: int, summary: z.string(), message: z.string() }),
  z.object({ kind: z.literal('hunks_overlap'), step: int, summary: z.string(), files: z.array(z.string()) }),
  z.object({
    kind: z.literal('large_change'),
    step: int,
    summary: z.string(),
    large: z.object({
      files: z.array(z.object({ path: z.string(), bytes: count })),
      count,
      maxFileBytes: count,
      maxFiles: count,
    }),
  }),
  z.object({
    kind: z.literal('forbidden_change'),
    step: int,
    attempt: int,
    changes: z.array(z.string()),
    undone: z.array(z.string()),
  }),
  z.object({ kind: z.literal('budget'), budget: budgetKind, spent: amount, cap: amount, action: actionSchema }),
  z.object({
    kind: z.literal('usage_limit'),
    role,
    message: z.string(),
    action: actionSchema,
    resetAt: z.string(),
    until: z.string(),
  }),
  z.object({
    kind: z.literal('external_change'),
    file: z.enum(['plan', 'comments']),
    role,
    action: actionSchema,
    text: z.string(),
  }),
  z.object({
    kind: z.literal('merge_conflicts'),
    file: z.enum(['plan', 'comments']),
    role,
    action: actionSchema,
    text: z.string(),
    yours: z.string(),
    conflicts: int,
  }),
]);

const stepRunSchema = z.object({
  step: int,
  attempt: positive,
  reviewAttempts: z.optional(count),
  baseTree: z.nullable(z.string()),
  startedAt: z.string(),
  testCommand: z.nullable(z.string()),
  denials: count,
  summary: z.nullable(z.string()),
  feedback: z.nullable(z.string()),
  testResult: z.nullable(z.enum(['passed', 'failed', 'none'])),
  allowed: z.optional(z.array(z.enum(['overlap', 'large']))),
  tokensAtStart: amount,
  costAtStart: amount,
});

const codeReviewSchema = z.object({
  mode: z.enum(['final', 'each']),
  maxRounds: positive,
  limit: positive,
  round: count,
  step: z.nullable(int),
  baseTree: z.nullable(z.string()),
  diff: z.nullable(z.string()),
  comments: z.nullable(z.string()),
  tests: z.array(z.string()),
  approved: z.boolean(),
  edited: z.optional(z.boolean()),
});

const ledgerSchema = z.object({
  next: positive,
  entries: z.array(
    z.object({
      id: z.string(),
      review: ledgerReview,
      step: z.nullable(int),
      round: count,
      number: count,
      point: z.string(),
      status: ledgerStatus,
      answer: z.nullable(z.string()),
      disputed: z.boolean(),
      note: z.nullable(z.string()),
      reraised: count,
    }),
  ),
  quiet: z.nullable(z.object({ review: ledgerReview, step: z.nullable(int), round: count })),
  ruling: z.array(z.string()),
});

const pendingCommandSchema = z.object({
  id: z.string(),
  role: z.enum(['planner', 'reviewer', 'agent-collab']),
  command: z.string(),
  decision: z.enum(['block', 'confirm']),
  rule: z.string(),
  reason: z.string(),
});

/** state.json, schemaVersion 1. Unknown keys are dropped. */
export const workflowStateSchema = z.object({
  schemaVersion: z.literal(1),
  runId: z.string(),
  phase: z.enum(PHASES),
  iteration: count,
  maxIterations: positive,
  mode: z.enum(['manual', 'auto']),
  pauseRequested: z.boolean(),
  goal: z.string(),
  refinedGoal: z.nullable(z.string()),
  sessions: z.object({ planner: z.nullable(z.string()), reviewer: z.nullable(z.string()) }),
  currentStep: z.nullable(int),
  steps: z.array(
    z.object({
      n: int,
      title: z.string(),
      done: z.boolean(),
      commit: z.optional(z.nullable(z.string())),
      skipped: z.optional(z.boolean()),
    }),
  ),
  stepRun: z._default(z.nullable(stepRunSchema), null),
  pendingCommand: z._default(z.nullable(pendingCommandSchema), null),
  allowedCommands: z._default(z.array(z.string()), []),
  testCommand: z._default(z.nullable(z.string()), null),
  inflight: z.nullable(actionSchema),
  awaiting: z.nullable(awaitingSchema),
  unclearCount: count,
  lastVerdict: z.nullable(z.enum(['APPROVED', 'CHANGES_REQUIRED'])),
  usage: usageSchema,
  roleUsage: z.optional(z.object({ planner: z.optional(usageSchema), reviewer: z.optional(usageSchema) })),
  codeReview: z._default(z.nullable(codeReviewSchema), null),
  budget: z.optional(
    z.object({
      workedMs: amount,
      workedMsByRole: z.optional(z.object({ planner: z.optional(amount), reviewer: z.optional(amount) })),
      raises: perBudget,
      noticedAt: perBudget,
    }),
  ),
  limitWaits: z.optional(count),
  ledger: z.optional(ledgerSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});

// Compile-time guard: the schema and the engine's WorkflowState must stay exactly the same type
// (mutual assignability alone would miss a forgotten optional field such as `reask?`).
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const _schemaMatchesWorkflowState: Equals<z.infer<typeof workflowStateSchema>, WorkflowState> = true;
void _schemaMatchesWorkflowState;
