// The TUI's view model: a pure reducer from what the engine publishes (and what the person sent) to what the
// screen shows. No React here, so it is tested without rendering.
import { describeReport, type RunReportWritten } from '../core/run-report.js';
import { autoStoppedBy, questionAsked, withFreshFlash } from './view-freshness.js';
import { DECISIONS, type Choice } from '../core/decisions.js';
import { noticeText } from '../core/notice-text.js';
import type { EngineEvent, EngineOutput, Notice } from '../core/events.js';
import { appendItems, emptyList, lastItem, replaceLast, toArray, type ChunkedList } from './entry-list.js';
import { appendedEntry, joinDetail, oneLine } from './agent-entries.js';

export { appendedEntry, oneLine } from './agent-entries.js';
export { describeAction, whoRuns } from './describe-action.js';
import { describeAction, whoRuns } from './describe-action.js';
import {
  type Action,
  type AgentEvent,
  type Awaiting,
  type Phase,
  type Role,
  type UsageTotals,
  type Verdict,
  type WorkflowState,
} from '../core/types.js';

export type ModeLabel = 'MANUAL' | 'AUTO' | 'PAUSING' | 'PAUSED';
export type Who = Role | 'you' | 'agent-collab';
export type EntryKind =
  'message' | 'reasoning' | 'tool' | 'command' | 'file' | 'question' | 'error' | 'notice' | 'phase' | 'user';
export type Tone = 'info' | 'good' | 'warn' | 'error';

export interface ConversationEntry {
  id: number;
  who: Who;
  kind: EntryKind;
  /** Messages: the whole text. Everything else: one line. */
  text: string;
  /** Shown when details are expanded: tool input and output, command output, full reasoning. */
  detail: string | null;
  /** Tool call / command id, to attach its result. */
  ref?: string;
  status?: 'running' | 'ok' | 'failed';
  tone?: Tone;
  /** A message that goes on the same agent's message right above it: drawn without its own header. */
  cont?: boolean;
}

export interface Working {
  role: Role | 'git' | 'agent-collab';
  what: string;
  /** ms since epoch when this round started (as seen by the UI). */
  since: number;
}

/** One finished agent round, for the Status tab's timings. */
export type RoundRecord = Omit<Extract<Notice, { kind: 'round' }>, 'kind'> & { n: number; at: number };

export interface ViewState {
  /** The latest engine state (Status tab, steps, sessions). */
  state: WorkflowState;
  /** The conversation, oldest first; appending is cheap (see entry-list.ts). */
  entries: ChunkedList<ConversationEntry>;
  /** The most recent finished rounds, oldest first (at most MAX_ROUNDS). */
  rounds: RoundRecord[];
  roundCount: number;
  nextId: number;
  maxEntries: number;
  phase: Phase;
  iteration: number;
  maxIterations: number;
  modeLabel: ModeLabel;
  /** The person pressed P and has not switched modes since. */
  pauseAsked: boolean;
  working: Working | null;
  usage: UsageTotals;
  /** What the engine waits for from the person: the dialog or prompt to show. */
  awaiting: Awaiting | null;
  lastVerdict: Verdict | null;
  finished: 'DONE' | 'CANCELLED' | null;
  /** The run's report, once written (the end screen shows it). */
  report: RunReportWritten | null;
  /**
   * The run was stopped by an error that ends it (one with an exit code, e.g. `.agent-collab/` deleted under it):
   * no dialog or round follows, the person can only read and leave.
   */
  stopped: { message: string; exitCode: number } | null;
  /** The last thing worth a line under the tabs: a rejection, an error, a notice; `round`: roundCount then. */
  flash: { text: string; tone: Tone; round?: number } | null;
}

/**
 * Things the UI itself feeds the reducer: commands it sent, local notices, and entries already made from agent
 * events while they waited for a frame (`skipped`: made and let go before, as only the newest maxEntries stay).
 */
export type UiAction =
  { type: 'sent'; event: EngineEvent } | { type: 'ui_notice'; text: string; tone: Tone } | EntriesAction;
export type EntriesAction = { type: 'entries'; entries: readonly NewEntry[]; skipped: number };
export type ViewAction = EngineOutput | UiAction;

export const DEFAULT_MAX_ENTRIES = 1000;
export const MAX_ROUNDS = 50;

export function initialView(state: WorkflowState, opts: { maxEntries?: number; now?: number } = {}): ViewState {
  const base: ViewState = {
    state,
    entries: emptyList(),
    rounds: [],
    roundCount: 0,
    nextId: 1,
    maxEntries: opts.maxEntries ?? DEFAULT_MAX_ENTRIES,
    phase: state.phase,
    iteration: state.iteration,
    maxIterations: state.maxIterations,
    modeLabel: 'MANUAL',
    pauseAsked: false,
    working: null,
    usage: state.usage,
    awaiting: state.awaiting,
    lastVerdict: state.lastVerdict,
    finished: null,
    report: null,
    stopped: null,
    flash: null,
  };
  return withState(base, state, opts.now ?? Date.now());
}

export function modeLabelOf(s: Pick<WorkflowState, 'mode' | 'pauseRequested'>, pauseAsked: boolean): ModeLabel {
  if (s.mode === 'auto') return s.pauseRequested ? 'PAUSING' : 'AUTO';
  return pauseAsked ? 'PAUSED' : 'MANUAL';
}

function sameAction(a: Action | null, b: Action | null): boolean {
  if (a === b) return true;
  if (!a || !b || a.kind !== b.kind) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function withState(v: ViewState, s: WorkflowState, now: number): ViewState {
  const asked = questionAsked(v.state, s);
  if (asked) v = push(v, { who: 'agent-collab', kind: 'notice', text: asked, detail: null });
  const autoOff = autoStoppedBy(v.state, s);
  if (autoOff && !v.stopped) {
    const told = push(
      { ...v, flash: { text: autoOff, tone: 'warn' } },
      {
        who: 'agent-collab',
        kind: 'notice',
        text: autoOff,
        detail: null,
        tone: 'warn',
      },
    );
    return withStateOnly(told, s, now);
  }
  return withStateOnly(v, s, now);
}

function withStateOnly(v: ViewState, s: WorkflowState, now: number): ViewState {
  const prev = v.state;
  let working: Working | null = null;
  if (s.inflight) {
    const keep = v.working && sameAction(prev.inflight, s.inflight);
    working =
      keep && v.working ? v.working : { role: whoRuns(s.inflight), what: describeAction(s.inflight, s), since: now };
  }
  return {
    ...v,
    state: s,
    phase: s.phase,
    iteration: s.iteration,
    maxIterations: s.maxIterations,
    modeLabel: modeLabelOf(s, v.pauseAsked),
    // A stopped run waits for nothing and runs nothing, whatever a state published after the stop says.
    working: v.stopped ? null : working,
    usage: s.usage,
    awaiting: v.stopped ? null : s.awaiting,
    lastVerdict: s.lastVerdict,
  };
}

export type NewEntry = Omit<ConversationEntry, 'id'>;

function push(v: ViewState, ...items: NewEntry[]): ViewState {
  return pushAll(v, items);
}

/** Appends `items`, after `skipped` entries that were made and let go already; the ids count every one. */
function pushAll(v: ViewState, items: readonly NewEntry[], skipped = 0): ViewState {
  if (items.length === 0 && skipped === 0) return v;
  // Only the newest maxEntries can stay.
  const skip = Math.max(0, items.length - v.maxEntries);
  const first = v.nextId + skipped;
  const added: ConversationEntry[] = [];
  let before = lastItem(v.entries);
  for (let i = skip; i < items.length; i++) {
    const item = items[i] as NewEntry;
    const entry: ConversationEntry = continues(before, item)
      ? { ...item, id: first + i, cont: true }
      : { ...item, id: first + i };
    added.push(entry);
    before = entry;
  }
  return { ...v, entries: appendItems(v.entries, added, v.maxEntries), nextId: first + items.length };
}

/** One agent message streamed in chunks reads as one message: a chunk right after the same agent's chunk. */
function continues(before: ConversationEntry | undefined, item: NewEntry): boolean {
  return item.kind === 'message' && before?.kind === 'message' && before.who === item.who;
}

/** Replaces the newest entry that `match` picks; false when there is none (then nothing changes). */
function updateLast(
  v: ViewState,
  match: (e: ConversationEntry) => boolean,
  update: (e: ConversationEntry) => ConversationEntry,
): ViewState | null {
  const entries = replaceLast(v.entries, match, update);
  return entries ? { ...v, entries } : null;
}

function onAgentEvent(v: ViewState, role: Role, ev: AgentEvent): ViewState {
  const simple = appendedEntry(role, ev);
  if (simple !== undefined) return simple ? push(v, simple) : v;
  switch (ev.type) {
    case 'tool_result': {
      const status = ev.isError ? 'failed' : 'ok';
      const match = (e: ConversationEntry): boolean =>
        e.kind === 'tool' && e.who === role && e.status === 'running' && (ev.id === undefined || e.ref === ev.id);
      const updated = updateLast(v, match, (e) => ({ ...e, status, detail: joinDetail(e.detail, ev.output) }));
      if (updated) return updated;
      return push(v, {
        who: role,
        kind: 'tool',
        text: `${ev.isError ? 'tool error' : 'tool result'}: ${oneLine(ev.output, 100)}`,
        detail: ev.output,
        status,
        tone: ev.isError ? 'warn' : undefined,
      });
    }
    case 'command': {
      const status = ev.status === 'completed' && (ev.exitCode ?? 0) === 0 ? 'ok' : 'failed';
      const ref = ev.id ?? ev.command;
      const exit = ev.exitCode === undefined || ev.exitCode === null ? '' : ` (exit ${ev.exitCode})`;
      const updated = updateLast(
        v,
        (e) => e.kind === 'command' && e.who === role && e.status === 'running' && e.ref === ref,
        (e) => ({ ...e, status, text: `${e.text}${exit}`, detail: joinDetail(e.detail, ev.output) }),
      );
      if (updated) return updated;
      return push(v, {
        who: role,
        kind: 'command',
        text: `$ ${oneLine(ev.command, 140)}${exit}`,
        detail: ev.output ?? null,
        ref,
        status,
      });
    }
    default:
      return v;
  }
}

function describeSent(e: EngineEvent): string | null {
  switch (e.type) {
    case 'user_message':
      return e.text;
    case 'answer':
      return e.text;
    case 'goal_ready':
      return e.goal ? `Goal is ready: ${e.goal}` : 'Goal is ready.';
    case 'decide': {
      // The person's choice, in the decisions table's words.
      if (e.on === 'arbitration' && e.choice === 'continue') return `Continue for ${e.rounds ?? 0} more round(s).`;
      const label = (DECISIONS[e.on].choices as readonly Choice[]).find((c) => c.id === e.choice)?.label ?? e.choice;
      return `${label.charAt(0).toUpperCase()}${label.slice(1)}.`;
    }
    default:
      return null;
  }
}

function onSent(v: ViewState, e: EngineEvent): ViewState {
  let next: ViewState = { ...v, flash: null };
  if (e.type === 'pause') next = { ...next, pauseAsked: true };
  else if (e.type === 'set_mode' || e.type === 'stop') next = { ...next, pauseAsked: false };
  next = { ...next, modeLabel: modeLabelOf(next.state, next.pauseAsked) };
  const text = describeSent(e);
  return text ? push(next, { who: 'you', kind: 'user', text, detail: null }) : next;
}

function phaseLine(from: Phase, to: Phase, iteration: number): string {
  const round = to === 'REVIEW' ? ` (round ${iteration + 1})` : to === 'RESPOND' ? ` (after round ${iteration})` : '';
  return `${from} → ${to}${round}`;
}

export function reduceView(v: ViewState, a: ViewAction, now: number = Date.now()): ViewState {
  return withFreshFlash(v, reduceOne(v, a, now));
}

function reduceOne(v: ViewState, a: ViewAction, now: number): ViewState {
  switch (a.type) {
    case 'state':
      return withState(v, a.state, now);
    case 'phase':
      return push(
        { ...v, phase: a.to },
        { who: 'agent-collab', kind: 'phase', text: phaseLine(a.from, a.to, a.iteration), detail: null },
      );
    case 'agent_event':
      return onAgentEvent(v, a.role, a.event);
    case 'notice': {
      const n = a.notice;
      if (n.kind === 'verdict') {
        const tone: Tone = n.verdict === 'APPROVED' ? 'good' : 'warn';
        return push(v, {
          who: 'agent-collab',
          kind: 'notice',
          text: `Verdict ${n.verdict} (iteration ${n.iteration})`,
          detail: null,
          tone,
        });
      }
      if (n.kind === 'round') {
        const rounds = [
          ...v.rounds,
          { role: n.role, action: n.action, outcome: n.outcome, usage: n.usage, n: v.roundCount + 1, at: now },
        ];
        return {
          ...v,
          rounds: rounds.length > MAX_ROUNDS ? rounds.slice(rounds.length - MAX_ROUNDS) : rounds,
          roundCount: v.roundCount + 1,
        };
      }
      {
        const text = noticeText(n);
        const tone: Tone =
          (n.kind === 'command' && n.decision === 'deny') || (n.kind === 'tests' && !n.passed) || n.kind === 'budget'
            ? 'warn'
            : 'info';
        return push({ ...v, flash: { text, tone } }, { who: 'agent-collab', kind: 'notice', text, detail: null, tone });
      }
    }
    case 'awaiting':
      return { ...v, awaiting: a.awaiting };
    case 'rejected':
      return { ...v, flash: { text: a.message, tone: 'warn' } };
    case 'error': {
      // An error with an exit code ends the run: the banner shows it whole, the flash line would only repeat it.
      const stopsWith = v.stopped ? undefined : a.exitCode;
      return push(
        stopsWith !== undefined
          ? {
              ...v,
              stopped: { message: a.message, exitCode: stopsWith },
              awaiting: null,
              working: null,
              flash: null,
            }
          : { ...v, flash: { text: a.message, tone: 'error' } },
        { who: 'agent-collab', kind: 'error', text: a.message, detail: null, tone: 'error' },
      );
    }
    case 'finished': {
      const text = a.phase === 'DONE' ? 'Run finished: all steps done.' : 'Run cancelled.';
      return push(
        { ...v, finished: a.phase, awaiting: null, working: null },
        { who: 'agent-collab', kind: 'notice', text, detail: null, tone: a.phase === 'DONE' ? 'good' : 'warn' },
      );
    }
    case 'report': {
      const { type: _type, ...report } = a;
      const text = `Run report: ${report.status} — ${describeReport(report)}`;
      return push(
        { ...v, report, flash: { text: `Run report (${report.status}): ${report.path}`, tone: 'info' } },
        { who: 'agent-collab', kind: 'notice', text, detail: report.path, tone: reportTone(report.status) },
      );
    }
    case 'sent':
      return onSent(v, a.event);
    case 'ui_notice':
      // Also in the conversation, where a long one (an install hint) can be read whole.
      return push(
        { ...v, flash: { text: a.text, tone: a.tone } },
        { who: 'agent-collab', kind: 'notice', text: a.text, detail: null, tone: a.tone },
      );
    case 'entries':
      return pushAll(v, a.entries, a.skipped);
  }
}

export function reportTone(status: RunReportWritten['status']): Tone {
  return status === 'SUCCESS' ? 'good' : status === 'PARTIAL' ? 'warn' : 'error';
}

/** Several actions at once (the App batches what the engine publishes between two frames). */
export function reduceAll(v: ViewState, actions: readonly ViewAction[], now: number = Date.now()): ViewState {
  // A run of events that only add entries is appended in one go: one new view and one append for the run, not
  // per line (a fast stream delivers thousands per batch).
  let next = v;
  let run: NewEntry[] = [];
  for (const a of actions) {
    const simple = a.type === 'agent_event' ? appendedEntry(a.role, a.event) : undefined;
    if (simple !== undefined) {
      if (simple) run.push(simple);
      continue;
    }
    if (run.length) next = pushAll(next, run);
    run = [];
    next = reduceView(next, a, now);
  }
  return run.length ? pushAll(next, run) : next;
}

/** How many entries the conversation let go of (it keeps the newest `maxEntries`). */
export function droppedEntries(v: ViewState): number {
  return v.nextId - 1 - v.entries.size;
}

/** The conversation entries as an array, oldest first. */
export function entriesOf(v: ViewState): ConversationEntry[] {
  return toArray(v.entries);
}
