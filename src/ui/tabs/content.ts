// What each tab shows, as screen lines (the App renders them through a ScrollView, windowed).
import { budgetLine, type BudgetCaps } from '../../core/budget.js';
import type { CodeReviewState, Role } from '../../core/types.js';
import type { Verdict, WorkflowState } from '../../core/types.js';
import type { TabId } from '../keymap.js';
import { fileLines, truncate, type Line } from '../lines.js';
import { conversationSource, type LineSource } from '../line-source.js';
import { patchLines } from './diff-tab.js';
import { toArray } from '../entry-list.js';
import type { FileTexts } from '../use-files.js';
import { formatCost, formatElapsed, formatTokens } from '../format.js';
import { droppedEntries, type ViewState } from '../view-model.js';
import { isLive, type Ledger, type LedgerStatus } from '../../core/ledger.js';

export const TAB_TITLES: Record<TabId, string> = {
  conversation: 'Conversation',
  plan: 'Plan',
  comments: 'Comments',
  log: 'Log',
  status: 'Status',
  code: 'Code',
  diff: 'Diff',
};

function placeholder(text: string): Line[] {
  return [{ key: 'empty', text, dim: true }];
}

/** The conversation, laid out a window at a time; a first line says when older entries were let go. */
export function conversationTab(view: ViewState, width: number, expanded: boolean): LineSource {
  if (view.entries.size === 0) {
    return placeholder(
      view.awaiting?.kind === 'goal'
        ? 'Tell the planner what you want done: type it below and press Enter.'
        : 'Nothing yet.',
    );
  }
  const dropped = droppedEntries(view);
  const head: Line[] =
    dropped > 0
      ? [
          {
            key: 'dropped',
            text: truncate(
              `… ${dropped} earlier entr${dropped === 1 ? 'y' : 'ies'} not kept in memory (the agents' events are in debug.log)`,
              width,
            ),
            dim: true,
          },
        ]
      : [];
  return conversationSource(toArray(view.entries), width, expanded, head);
}

export function stepLines(state: WorkflowState, width: number): Line[] {
  if (state.steps.length === 0) return [];
  const done = state.steps.filter((s) => s.done).length;
  const out: Line[] = [{ key: 's-head', text: `Steps: ${done}/${state.steps.length} done`, bold: true }];
  for (const s of state.steps) {
    const mark = s.done ? '[x]' : state.currentStep === s.n ? '[>]' : '[ ]';
    const commit = s.commit ? ` (${s.commit.slice(0, 7)})` : '';
    out.push({
      key: `s${s.n}`,
      text: truncate(`${mark} ${s.n}. ${s.title}${commit}`, width),
      color: s.done ? 'green' : state.currentStep === s.n ? 'yellow' : undefined,
    });
  }
  out.push({ key: 's-gap', text: '' });
  return out;
}

export function planTab(view: ViewState, texts: FileTexts, width: number): Line[] {
  const steps = stepLines(view.state, width);
  if (texts.plan === null)
    return [...steps, ...placeholder('No plan.md yet: the planner writes it once the goal is ready.')];
  return [...steps, ...fileLines(texts.plan, width, 'p')];
}

/** The verdict marker on the first non-empty line of comments.md, if any. */
export function verdictOf(comments: string | null): Verdict | null {
  const first =
    comments
      ?.split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  if (first.startsWith('[APPROVED]')) return 'APPROVED';
  if (first.startsWith('[CHANGES_REQUIRED]')) return 'CHANGES_REQUIRED';
  return null;
}

export function verdictBadge(verdict: Verdict | null, iteration: number): Line {
  if (verdict === 'APPROVED')
    return { key: 'badge', text: ` ✓ APPROVED  (iteration ${iteration}) `, color: 'green', bold: true };
  if (verdict === 'CHANGES_REQUIRED')
    return { key: 'badge', text: ` ✗ CHANGES_REQUIRED  (iteration ${iteration}) `, color: 'yellow', bold: true };
  return { key: 'badge', text: ' no verdict yet ', dim: true };
}

const STATUS_COLOR: Record<LedgerStatus, string | undefined> = {
  open: 'yellow',
  addressed: 'cyan',
  disputed: 'red',
  resolved: 'green',
  withdrawn: undefined,
};

/** The issue ledger above the comments: one line per entry (id, status, where from, the point), live ones bright. */
export function ledgerLines(ledger: Ledger | undefined, width: number): Line[] {
  const entries = ledger?.entries ?? [];
  if (entries.length === 0) return [];
  const live = entries.filter(isLive).length;
  const out: Line[] = [
    {
      key: 'lg-head',
      text: `Issue ledger: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, ${live} live`,
      bold: true,
    },
  ];
  for (const e of entries) {
    const where = e.review === 'plan' ? `plan r${e.round}` : `code${e.step === null ? '' : ` s${e.step}`} r${e.round}`;
    out.push({
      key: `lg-${e.id}`,
      text: truncate(`${e.id.padEnd(4)} ${e.status.padEnd(9)} ${where.padEnd(11)} ${e.point}`, width),
      color: STATUS_COLOR[e.status],
      dim: !isLive(e),
    });
  }
  out.push({ key: 'lg-gap', text: '' });
  return out;
}

export function commentsTab(view: ViewState, texts: FileTexts, width: number): Line[] {
  const ledger = ledgerLines(view.state.ledger, width);
  if (texts.comments === null)
    return [
      ...ledger,
      verdictBadge(view.lastVerdict, view.iteration),
      ...placeholder('No comments.md yet: the reviewer writes it after reading the plan.'),
    ];
  const verdict = verdictOf(texts.comments) ?? view.lastVerdict;
  return [
    ...ledger,
    verdictBadge(verdict, view.iteration),
    { key: 'gap', text: '' },
    ...fileLines(texts.comments, width, 'c'),
  ];
}

/** The recent rounds, newest last: role, action, outcome, duration, tokens, cost. */
export function roundLines(view: ViewState, width: number, max = 10): Line[] {
  const rounds = view.rounds.slice(-max);
  // The list holds the rounds seen since this start; the run's own count (its calls) may be larger after a resume.
  const head = `Rounds since this start: last ${rounds.length} of ${view.roundCount} · the whole run: ${view.state.usage.calls} agent call(s)`;
  const out: Line[] = [
    { key: 'r-gap', text: '' },
    { key: 'r-head', text: head, bold: true },
  ];
  if (rounds.length === 0) return [...out, { key: 'r-none', text: '  none finished yet', dim: true }];
  out.push({
    key: 'r-cols',
    text: truncate(
      `  ${'#'.padStart(3)}  ${'role'.padEnd(8)}  ${'action'.padEnd(16)}  ${'time'.padStart(7)}  ${'tokens'.padStart(7)}  ${'cost'.padStart(6)}`,
      width,
    ),
    dim: true,
  });
  for (const r of rounds) {
    const tokens = formatTokens(r.usage.inputTokens + r.usage.outputTokens);
    const outcome = r.outcome === 'done' ? '' : `  ${r.outcome}`;
    const text = `  ${String(r.n).padStart(3)}  ${r.role.padEnd(8)}  ${r.action.padEnd(16)}  ${formatSeconds(r.usage.durationMs).padStart(7)}  ${tokens.padStart(7)}  ${formatCost(r.usage.costUsd).padStart(6)}${outcome}`;
    out.push({ key: `r${r.n}`, text: truncate(text, width), color: r.outcome === 'failed' ? 'red' : undefined });
  }
  return out;
}

function formatSeconds(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : formatElapsed(ms);
}

/** Who plays a role, with which model and effort ("" = the CLI's default), for the Status tab. */
export interface RoleSetup {
  agent: string;
  model: string;
  effort: string;
}

export interface RunSetup {
  roles?: Record<Role, RoleSetup>;
  budget?: BudgetCaps;
}

function roleText(setup: RoleSetup | undefined, session: string | null): string {
  const sessionText = session ?? '(no session)';
  if (!setup) return sessionText;
  return `${setup.agent} · model ${setup.model || '(CLI default)'} · effort ${setup.effort || '(CLI default)'} · session ${sessionText}`;
}

/** The body of the planner's "## Refined goal" section (or its first paragraph), on one line; null when none. */
export function refinedGoalText(text: string | null): string | null {
  if (!text?.trim()) return null;
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => /^#+\s*refined goal\b/i.test(l.trim()));
  const from = at >= 0 ? lines.slice(at + 1) : lines;
  const body: string[] = [];
  for (const l of from) {
    if (/^#+\s/.test(l.trim())) {
      if (body.length) break;
      continue;
    }
    if (!l.trim() && body.length) break;
    if (l.trim()) body.push(l.trim());
  }
  return body.length ? body.join(' ') : null;
}

export function statusTab(view: ViewState, width: number, now: number, setup: RunSetup = {}): Line[] {
  const s = view.state;
  const u = s.usage;
  const row = (k: string, v: string): Line => ({ key: k, text: truncate(`${k.padEnd(14)} ${v}`, width) });
  const budget = budgetLine(s, setup.budget);
  const refined = refinedGoalText(s.refinedGoal);
  return [
    row('run', s.runId),
    // The planner's restatement once there is one: it is what the plan is written from.
    ...(refined ? [row('goal', refined), row('first asked', s.goal)] : [row('goal', s.goal || '(not stated yet)')]),
    row('phase', s.phase),
    row('iteration', `${s.iteration}/${s.maxIterations}`),
    row('code review', codeReviewText(s.codeReview)),
    row('mode', view.modeLabel),
    row(
      'working',
      view.working ? `${view.working.role}: ${view.working.what} (${formatElapsed(now - view.working.since)})` : '—',
    ),
    row('waiting for', s.awaiting ? s.awaiting.kind : '—'),
    row('planner', roleText(setup.roles?.planner, s.sessions.planner)),
    row('reviewer', roleText(setup.roles?.reviewer, s.sessions.reviewer)),
    row(
      'tokens',
      `${formatTokens(u.inputTokens)} in · ${formatTokens(u.outputTokens)} out · ${formatTokens(u.cachedTokens)} cached`,
    ),
    row('cost', formatCost(u.costUsd)),
    row('agent time', `${formatElapsed(u.durationMs)} over ${u.calls} call(s)`),
    ...(budget.length ? [row('budget', budget.join(' · '))] : []),
    row('started', s.createdAt),
    row('updated', s.updatedAt),
    ...roundLines(view, width),
  ];
}

/** One line on the code review for the Status tab: its mode, where it stands, or that it is off. */
function codeReviewText(cr: CodeReviewState | null | undefined): string {
  if (!cr) return 'off';
  const where =
    cr.mode === 'final' ? 'of the whole run' : `of each step${cr.step !== null ? ` (now step ${cr.step})` : ''}`;
  if (cr.approved && cr.mode === 'final') return `${where} · approved after ${cr.round} round(s)`;
  if (cr.round === 0) return `${where} · not started`;
  return `${where} · round ${cr.round} of at most ${cr.limit}`;
}

/** The code review (issue 19): its mode and round, the reviewer's last comments, and the diff under review. */
export function codeTab(view: ViewState, width: number): Line[] {
  const cr = view.state.codeReview;
  if (!cr) return placeholder('The code is not reviewed in this run ([review] code = "off", or no goal yet).');
  const scope = cr.mode === 'final' ? "the run's changes after its last step" : 'each step before its commit';
  const head: Line[] = [
    { key: 'cr-head', text: truncate(`Code review of ${scope}`, width), bold: true },
    {
      key: 'cr-round',
      text: truncate(
        `${cr.step !== null ? `step ${cr.step} · ` : ''}round ${cr.round} of at most ${cr.limit}${cr.approved ? ' · approved' : ''}`,
        width,
      ),
      color: cr.approved ? 'green' : undefined,
    },
    { key: 'cr-gap', text: '' },
  ];
  const comments: Line[] = cr.comments
    ? [
        { key: 'cr-c-head', text: "── the reviewer's last comments ──", dim: true },
        ...fileLines(cr.comments, width, 'crc'),
        { key: 'cr-c-gap', text: '' },
      ]
    : [];
  const diff: Line[] = cr.diff
    ? [
        {
          key: 'cr-d-head',
          text: truncate('── the diff under review (7: the Diff tab, with its file list) ──', width),
          dim: true,
        },
        ...patchLines(cr.diff, width, 'crd'),
      ]
    : placeholder('No diff reviewed yet: the reviewer reads it once the code is ready.');
  return [...head, ...comments, ...diff];
}
