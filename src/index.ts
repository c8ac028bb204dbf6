// The library entry (`import { run } from 'agent-collab'`; package.json `exports`, docs/api.md): one function that
// runs agent-collab headless in-process, its option, result and event types, and the exit codes.
export { run } from './api/run.js';
export type {
  DecideAnswer,
  RoleUsage,
  RunOptions,
  RunResult,
  RunStep,
  RunUsage,
  RunWorktreeInfo,
  UsageNumbers,
} from './api/types.js';
export type {
  AgentRunEvent,
  BudgetEvent,
  CodeReviewEvent,
  CommandEvent,
  DoneEvent,
  ErrorEvent,
  NeedsHumanEvent,
  NoticeEvent,
  PhaseEvent,
  RejectedEvent,
  ReportEvent,
  RoundEvent,
  RunChoice,
  RunEvent,
  RunEventBody,
  RunEventName,
  TestsEvent,
  VerdictEvent,
  WaitingEvent,
} from './modes/run-events.js';
export type { Config } from './persistence/config-schema.js';
export type { DeepPartial } from './persistence/deep-merge.js';
export type { AgentEvent, Awaiting, Phase, Role, StepInfo, UsageTotals } from './core/types.js';
export { EXIT, UserError } from './core/errors.js';
