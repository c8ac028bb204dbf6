// The run report (issue 19, item 7): `.agent-collab/runs/<run id>/report.md`, written when a run ends, in the shape
// of an execution report (frontmatter with the status, then numbered sections). Pure: the engine gathers the facts
// (state, log.md, git) into a RunReportInput; this renders them. The status:
//   SUCCESS — the run is DONE and every step of the plan is done;
//   PARTIAL — some steps are done (committed) but the run was stopped, cancelled or interrupted, or a step skipped;
//   FAILED  — no step is done.
import type { LogFacts } from './run-report-log.js';
import type { Role, StepInfo, UsageTotals, WorkflowState } from './types.js';

export type RunEnding = 'done' | 'stopped' | 'cancelled' | 'interrupted' | 'failed';
export type ReportStatus = 'SUCCESS' | 'PARTIAL' | 'FAILED';

/** A commit of the run (its `[Step N]` commits, found by their run trailer). */
export interface ReportCommit {
  hash: string;
  subject: string;
}

export interface ChangedFile {
  path: string;
  change: 'added' | 'modified' | 'deleted';
  /** Lines added and removed; null for a binary file. */
  added: number | null;
  removed: number | null;
}

/** An open entry of the review ledger (issue 19, item 2). */
export interface OpenEntry {
  id: string | number;
  status: string;
  text: string;
}

export interface RoleSetup {
  agent: string;
  /** Empty: the CLI's default. */
  model: string;
  effort: string;
}

export interface RunReportInput {
  /** The state the run ended in. */
  state: WorkflowState;
  ending: RunEnding;
  /** Why it ended, in a line (log.md's title of it). */
  reason: string;
  /** The step under way when the run was stopped (the state no longer says). */
  stoppedAt: number | null;
  endedAt: string;
  planTitle: string | null;
  log: LogFacts;
  /** The run's commits, oldest first. */
  commits: ReportCommit[];
  /** What the run's commits changed, or why git could not say. */
  files: ChangedFile[] | { error: string };
  roles: Record<Role, RoleSetup>;
  /** The review ledger's open entries; undefined: there is no ledger. */
  openEntries?: readonly OpenEntry[];
}

/** The key numbers of a report (the NDJSON `report` event, the TUI's end screen). */
export interface RunReportSummary {
  status: ReportStatus;
  ending: RunEnding;
  stepsDone: number;
  stepsTotal: number;
  commits: number;
  filesChanged: number;
  tokens: number;
  costUsd: number;
  agentMinutes: number;
}

export interface RunReportWritten extends RunReportSummary {
  path: string;
}

/** Lists longer than these are cut, with a line saying how many were left out. */
export const REPORT_LIMITS = { files: 200, decisions: 100, denied: 50, verdicts: 50 } as const;

export function reportStatus(steps: readonly StepInfo[], ending: RunEnding): ReportStatus {
  const done = steps.filter((s) => s.done).length;
  if (ending === 'done' && done === steps.length) return 'SUCCESS';
  return done > 0 ? 'PARTIAL' : 'FAILED';
}

export function reportSummary(r: RunReportInput): RunReportSummary {
  const s = r.state;
  return {
    status: reportStatus(s.steps, r.ending),
    ending: r.ending,
    stepsDone: s.steps.filter((st) => st.done).length,
    stepsTotal: s.steps.length,
    commits: r.commits.length,
    filesChanged: Array.isArray(r.files) ? r.files.length : 0,
    tokens: s.usage.inputTokens + s.usage.outputTokens,
    costUsd: s.usage.costUsd,
    agentMinutes: (s.budget?.workedMs ?? 0) / 60_000,
  };
}

const ENDINGS: Record<RunEnding, string> = {
  done: 'done',
  stopped: 'stopped by the person',
  cancelled: 'cancelled by the person',
  interrupted: 'interrupted (agent-collab was closed; the run is saved and can be resumed)',
  failed: 'failed (an agent or agent-collab failed; the run is saved and can be resumed)',
};

/** One table cell: no line breaks, no column separator. */
function cell(text: string): string {
  return (
    text
      .replace(/\s*\n\s*/g, ' ')
      .replace(/\|/g, '\\|')
      .trim() || ' '
  );
}

/** Inline code that survives backticks inside `text`. */
function code(text: string): string {
  const one = text.replace(/\s*\n\s*/g, ' ').trim();
  return one.includes('`') ? `\`\` ${one} \`\`` : `\`${one}\``;
}

function yamlString(text: string): string {
  return JSON.stringify(text.replace(/\s*\n\s*/g, ' '));
}

function cut<T>(items: readonly T[], max: number): { shown: readonly T[]; more: string[] } {
  if (items.length <= max) return { shown: items, more: [] };
  return { shown: items.slice(0, max), more: ['', `… and ${items.length - max} more`] };
}

function money(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

function duration(ms: number): string {
  const secs = Math.round(ms / 1000);
  if (secs < 60) return `${secs} s`;
  const mins = Math.floor(secs / 60);
  return mins < 60 ? `${mins} min ${secs % 60} s` : `${Math.floor(mins / 60)} h ${mins % 60} min`;
}

function commitOf(step: StepInfo, commits: readonly ReportCommit[]): ReportCommit | null {
  const hash = step.commit;
  if (!hash) return null;
  return commits.find((c) => c.hash.startsWith(hash) || hash.startsWith(c.hash)) ?? { hash, subject: '' };
}

function stepStatus(step: StepInfo, r: RunReportInput): string {
  if (step.done) return step.commit ? 'committed' : 'done (nothing to commit)';
  if (step.skipped) return 'skipped (changes left uncommitted)';
  if (r.stoppedAt === step.n) return r.ending === 'interrupted' || r.ending === 'failed' ? 'under way' : 'stopped here';
  return 'not done';
}

function overview(r: RunReportInput, status: ReportStatus): string[] {
  const s = r.state;
  const done = s.steps.filter((st) => st.done).length;
  const lines = ['## 1. Overview', '', `- **Goal**: ${s.goal.trim() || '(none)'}`];
  if (s.refinedGoal && s.refinedGoal.trim() !== s.goal.trim())
    lines.push(`- **Refined goal**: ${s.refinedGoal.trim()}`);
  lines.push(
    `- **Status**: ${status} — ${done} of ${s.steps.length} step(s) done`,
    `- **Ended**: ${ENDINGS[r.ending]}${r.reason ? ` — ${r.reason}` : ''}`,
    `- **Started**: ${s.createdAt}; **ended**: ${r.endedAt} (${duration(Math.max(0, Date.parse(r.endedAt) - Date.parse(s.createdAt)))} wall time)`,
    `- **Plan review**: ${s.iteration} round(s)${s.lastVerdict ? `, last verdict ${s.lastVerdict}` : ''}`,
  );
  return lines;
}

function planSection(r: RunReportInput): string[] {
  const lines = ['## 2. Plan', '', `**${r.planTitle ?? '(no title)'}**`, ''];
  if (r.state.steps.length === 0) return [...lines, 'No steps: the plan was not approved or had none.'];
  lines.push('| Step | Title | Status | Commit | Tests |', '| ---: | :--- | :--- | :--- | :--- |');
  for (const st of r.state.steps) {
    const c = commitOf(st, r.commits);
    const tests = r.log.tests.get(st.n) ?? (st.done || r.stoppedAt === st.n ? 'not run' : '');
    lines.push(
      `| ${st.n} | ${cell(st.title)} | ${stepStatus(st, r)} | ${c ? code(c.hash.slice(0, 12)) : ' '} | ${cell(tests)} |`,
    );
  }
  return lines;
}

function commitsSection(r: RunReportInput): string[] {
  const lines = ['## 3. Commits', ''];
  if (r.commits.length === 0) return [...lines, 'None: the run committed nothing.'];
  lines.push('| Commit | Subject |', '| :--- | :--- |');
  for (const c of r.commits) lines.push(`| ${code(c.hash)} | ${cell(c.subject)} |`);
  return lines;
}

function filesSection(r: RunReportInput): string[] {
  const lines = ['## 4. Files changed', ''];
  if (!Array.isArray(r.files)) return [...lines, `Unknown: ${r.files.error}`];
  if (r.files.length === 0) return [...lines, 'None.'];
  const { shown, more } = cut(r.files, REPORT_LIMITS.files);
  lines.push(
    `${r.files.length} file(s), by the run's commits (lines added and removed summed over them).`,
    '',
    '| File | Change | + | − |',
    '| :--- | :--- | ---: | ---: |',
  );
  for (const f of shown)
    lines.push(`| ${cell(f.path)} | ${f.change} | ${f.added ?? 'binary'} | ${f.removed ?? 'binary'} |`);
  return [...lines, ...more];
}

function codeReviewSection(r: RunReportInput): string[] {
  const lines = ['## 5. Code review', ''];
  const cr = r.state.codeReview;
  if (!cr) return [...lines, 'Off (`[review] code = "off"`).'];
  const outcome = cr.approved
    ? r.log.codeAcceptedByPerson
      ? 'accepted by the person although the reviewer still asked for changes'
      : 'approved by the reviewer'
    : cr.mode === 'final'
      ? 'not approved (the run ended before the review did)'
      : 'each step was reviewed before its commit';
  lines.push(
    `- **Mode**: ${cr.mode}`,
    `- **Rounds**: ${r.log.codeVerdicts.length} verdict(s) (cap ${cr.maxRounds} per review)`,
    `- **Outcome**: ${outcome}`,
    `- **Accepted by the person**: ${r.log.codeAcceptedByPerson ? 'yes' : 'no'}`,
  );
  const { shown, more } = cut(r.log.codeVerdicts, REPORT_LIMITS.verdicts);
  if (shown.length) lines.push('', ...shown.map((v) => `- ${v}`), ...more);
  return lines;
}

function openEntriesSection(r: RunReportInput): string[] {
  const lines = ['## 6. Open review entries', ''];
  if (r.openEntries === undefined) return [...lines, 'No review ledger in this run.'];
  if (r.openEntries.length === 0) return [...lines, 'None: every review entry was resolved.'];
  lines.push('| # | Status | Entry |', '| ---: | :--- | :--- |');
  for (const e of r.openEntries) lines.push(`| ${cell(String(e.id))} | ${cell(e.status)} | ${cell(e.text)} |`);
  return lines;
}

function decisionsSection(r: RunReportInput): string[] {
  const lines = ['## 7. The person’s decisions', ''];
  if (r.log.decisions.length === 0) return [...lines, 'None: the run went its way without a decision.'];
  const { shown, more } = cut(r.log.decisions, REPORT_LIMITS.decisions);
  return [...lines, ...shown.map((d) => `- ${d.at} — ${d.text.replace(/\s*\n\s*/g, ' ')}`), ...more];
}

function deniedSection(r: RunReportInput): string[] {
  const lines = ['## 8. Denied commands', ''];
  if (r.log.denied.length === 0) return [...lines, 'None.'];
  const { shown, more } = cut(r.log.denied, REPORT_LIMITS.denied);
  return [...lines, ...shown.map((d) => `- ${code(d.command)} — ${d.reason.replace(/\s*\n\s*/g, ' ')}`), ...more];
}

/** `ms` undefined: not recorded for this run. */
function usageRow(name: string, setup: RoleSetup | null, u: UsageTotals | undefined, ms: number | undefined): string {
  const who = setup
    ? `${cell(setup.agent)} | ${cell(setup.model || 'CLI default')} | ${cell(setup.effort || 'CLI default')}`
    : '  |   |  ';
  const time = ms === undefined ? '–' : duration(ms);
  if (!u) return `| ${name} | ${who} | – | – | – | – | ${time} |`;
  return `| ${name} | ${who} | ${u.calls} | ${u.inputTokens} | ${u.outputTokens} | ${money(u.costUsd)} | ${time} |`;
}

function usageSection(r: RunReportInput): string[] {
  const s = r.state;
  const perRole = s.roleUsage;
  const byRole = s.budget?.workedMsByRole;
  const roleRow = (role: Role, name: string): string =>
    usageRow(
      name,
      r.roles[role],
      perRole ? (perRole[role] ?? NONE) : undefined,
      byRole ? (byRole[role] ?? 0) : undefined,
    );
  const lines = [
    '## 9. Models, tokens, cost and time per role',
    '',
    '| Role | Agent | Model | Effort | Calls | Tokens in | Tokens out | Cost | Agent time |',
    '| :--- | :--- | :--- | :--- | ---: | ---: | ---: | ---: | ---: |',
    roleRow('planner', 'planner (and executor)'),
    roleRow('reviewer', 'reviewer'),
    usageRow('**total**', null, s.usage, s.budget?.workedMs ?? 0),
  ];
  if (!perRole || !byRole) lines.push('', 'Per role: not all recorded (the run started before agent-collab kept it).');
  lines.push(
    '',
    "Agent time: the agents' rounds as agent-collab timed them (what the `[budget] max_minutes` cap counts); waiting for you, tests and commits are not in it.",
  );
  return lines;
}

const NONE: UsageTotals = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, durationMs: 0, calls: 0 };

export function renderRunReport(r: RunReportInput): string {
  const status = reportStatus(r.state.steps, r.ending);
  const sections = [
    [
      '---',
      `run_id: ${yamlString(r.state.runId)}`,
      `report_date: ${yamlString(r.endedAt)}`,
      `status: ${yamlString(status)}`,
      `ending: ${yamlString(r.ending)}`,
      '---',
      '',
      `# Run report: ${status}`,
    ],
    overview(r, status),
    planSection(r),
    commitsSection(r),
    filesSection(r),
    codeReviewSection(r),
    openEntriesSection(r),
    decisionsSection(r),
    deniedSection(r),
    usageSection(r),
    [
      '## 10. Records',
      '',
      `- log.md, and under runs/${r.state.runId}/: timeline.md and each step attempt's prompt, events, patch and verdict`,
    ],
  ];
  return `${sections.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}

/** The report's key numbers in a line (text mode, the TUI). */
export function describeReport(r: RunReportSummary): string {
  return (
    `${r.stepsDone}/${r.stepsTotal} step(s) done, ${r.commits} commit(s), ${r.filesChanged} file(s) changed; ` +
    `${Math.round(r.tokens).toLocaleString('en-US')} tokens, $${r.costUsd.toFixed(2)}, ` +
    `${(Math.round(r.agentMinutes * 10) / 10).toString()} min of agent time`
  );
}
