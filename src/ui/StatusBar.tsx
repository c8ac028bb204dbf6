import { Box, Text } from './styled.js';
import { useEffect, useState } from 'react';
import type { Hint } from './keymap.js';
import { formatCost, formatElapsed, formatTokens, totalTokens } from './format.js';
import { lastItem } from './entry-list.js';
import { oneLine, type ModeLabel, type ViewState, type Working } from './view-model.js';
import { BUDGET_KEYS, budgetLine, describeBudget, type BudgetCaps } from '../core/budget.js';

const MODE_COLOR: Record<ModeLabel, string> = { MANUAL: 'blue', AUTO: 'green', PAUSING: 'yellow', PAUSED: 'yellow' };

/** Re-renders only this component once a second, for the clocks. */
export function useNow(now: () => number, tickMs: number): number {
  const [t, setT] = useState(now);
  useEffect(() => {
    if (tickMs <= 0) return undefined;
    const timer = setInterval(() => setT(now()), tickMs);
    return () => clearInterval(timer);
  }, [now, tickMs]);
  return t;
}

export interface StatusBarProps {
  view: ViewState;
  hints: Hint[];
  now: () => number;
  tickMs?: number;
  /** `[safety] sandbox = "off"`: the bar says so for as long as the run lasts. */
  sandboxOff?: boolean;
  /** `[budget]` caps: each capped budget is shown as spent / cap. */
  budget?: BudgetCaps;
}

const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

/** What the working agent does right now, from the newest conversation entry: its tool, command or file edit. */
function doingNow(view: ViewState, role: Working['role']): string {
  const last = lastItem(view.entries);
  if (!last || last.who !== role) return '';
  if (last.kind === 'message') return ' · writing';
  if (last.kind === 'reasoning') return ' · thinking';
  if (last.kind !== 'tool' && last.kind !== 'command' && last.kind !== 'file') return '';
  const what = last.kind === 'file' ? `✎ ${last.text}` : last.text;
  return ` · ${oneLine(what, 60)}`;
}

/** Always visible: phase, iteration, mode, who works on what, elapsed, tokens/cost; then the keys that apply now. */
export function StatusBar({ view, hints, now, tickMs = 1000, sandboxOff = false, budget }: StatusBarProps) {
  const t = useNow(now, tickMs);
  const w = view.working;
  // The round under way reports its agent time at least once a minute (engine/round-budget.ts).
  const spent = budgetLine(view.state, budget);
  return (
    <Box flexDirection="column">
      <Box columnGap={2}>
        <Box flexShrink={0} columnGap={2}>
          <Text bold>{view.phase}</Text>
          <Text>
            iter {view.iteration}/{view.maxIterations}
          </Text>
          <Text color={MODE_COLOR[view.modeLabel]} bold>
            {view.modeLabel}
          </Text>
          {sandboxOff ? (
            <Text color="red" bold>
              UNCONFINED
            </Text>
          ) : null}
        </Box>
        <Box flexGrow={1} flexShrink={1} flexBasis={0}>
          <Text wrap="truncate" color={w ? 'cyan' : undefined} dimColor={!w}>
            {w
              ? `${SPINNER[Math.floor(t / 1000) % SPINNER.length] ?? ''} ${w.role}: ${w.what} ${formatElapsed(t - w.since)}${doingNow(view, w.role)}`
              : waitingText(view)}
          </Text>
        </Box>
        <Box flexShrink={0} columnGap={1}>
          <Text dimColor>⏱ {formatElapsed(agentTime(view, t))}</Text>
          {spent.length ? (
            <Text dimColor>budget {spent.join(' · ')}</Text>
          ) : (
            <Text dimColor>
              {formatTokens(totalTokens(view.usage))} tok {formatCost(view.usage.costUsd)}
            </Text>
          )}
        </Box>
      </Box>
      <Text wrap="truncate" dimColor>
        {hints.map((h) => `${h.key} ${h.text}`).join(' · ')}
      </Text>
    </Box>
  );
}

/**
 * The run's agent time: its finished rounds and the one under way. A run total like its tokens and cost, so a
 * resume resets neither (the clock counted from this start while the tokens counted the whole run).
 */
export function agentTime(view: ViewState, now: number): number {
  const w = view.working;
  const agentRunning = w !== null && (w.role === 'planner' || w.role === 'reviewer');
  return view.usage.durationMs + (agentRunning ? Math.max(0, now - w.since) : 0);
}

export function waitingText(view: ViewState): string {
  if (view.stopped) return 'run stopped';
  if (view.finished) return view.finished === 'DONE' ? 'run finished' : 'run cancelled';
  const a = view.awaiting;
  if (!a) return 'idle';
  switch (a.kind) {
    case 'goal':
      return 'waiting for your goal';
    case 'go':
      return 'waiting for your go (Enter)';
    case 'arbitration':
      return 'waiting for your decision: iteration cap';
    case 'manual_edit':
      return 'waiting for your edit of plan.md';
    case 'code_review_cap':
      return a.noFixSteps === undefined
        ? 'waiting for your decision: code review cap'
        : 'waiting for your decision: the planner listed no fix steps';
    case 'code_edit':
      return 'waiting for your edit of the code';
    case 'disagreement':
      return 'waiting for your ruling: the reviewer and the planner are stuck';
    case 'question':
      return `the ${a.role} asks you something`;
    case 'interrupted':
      return `you interrupted the ${a.role}: Enter runs the round again`;
    case 'unclear_verdict':
      return 'waiting for you: unreadable verdict';
    case 'failure':
      return 'waiting for you: a round failed';
    case 'step_failed':
      return a.rolledBack ? `step ${a.step} rolled back: what next?` : `waiting for you: step ${a.step} still fails`;
    case 'forbidden_change':
      return `waiting for you: step ${a.step} changed what it must not`;
    case 'secret_found':
      return `waiting for you: possible secret in step ${a.step}`;
    case 'commit_failed':
      return `waiting for you: commit of step ${a.step} failed`;
    case 'hunks_overlap':
      return `waiting for you: step ${a.step} changed lines you had changed too`;
    case 'large_change':
      return `waiting for you: step ${a.step} is over the size limits`;
    case 'external_change':
      return `waiting for you: ${a.file === 'plan' ? 'plan.md' : 'comments.md'} changed outside`;
    case 'budget':
      return `waiting for you: ${BUDGET_KEYS[a.budget]} reached (${describeBudget(a)})`;
    case 'usage_limit':
      return `usage limit: the ${a.role}'s round runs again at the reset`;
    case 'merge_conflicts':
      return `waiting for you: resolve the conflicts in ${a.file === 'plan' ? 'plan.md' : 'comments.md'} (e edits)`;
  }
}
