// Below the tabs when no dialog is open (the goal box, the next round, a failure, the end), and the status-bar
// keys that apply now.
import type { DialogKind } from './decision-keys.js';
import { choiceHints, keyOf, tuiChoices } from './decision-keys.js';
import { describeReport } from '../core/run-report.js';
import { GoalInput } from './GoalInput.js';
import type { Editor } from './line-editor.js';
import { bindingOf, hintsFor, type Hint, type KeyContext } from './keymap.js';
import { Box, Text } from './styled.js';
import { describeAction, whoRuns, type ViewState } from './view-model.js';

export type Modal = 'help' | 'confirm_stop' | 'confirm_enter' | 'command' | DialogKind;

/** Dialogs whose choices are single keys: the status bar lists them (the others explain their keys inside). */
const LETTERED: ReadonlySet<Modal> = new Set<Modal>([
  'command',
  'unclear_verdict',
  'step_failed',
  'forbidden_change',
  'secret_found',
  'commit_failed',
  'hunks_overlap',
  'large_change',
  'external_change',
  'budget',
  'usage_limit',
]);

/** The status-bar keys: a dialog's own while it has the keyboard, else the keymap's that apply now. */
export function hintsNow(modal: Modal | null, view: ViewState, ctx: KeyContext): Hint[] {
  if (modal === null) return hintsFor(ctx);
  const quit: Hint = { command: 'quit', key: 'Ctrl+C', text: 'quit' };
  const asking = modal === 'command' ? view.state.pendingCommand : view.awaiting;
  if (!LETTERED.has(modal) || !asking) return [quit];
  return [...choiceHints(tuiChoices(asking)), quit];
}

interface BannerProps {
  view: ViewState;
  /** The goal box's text and cursor. */
  editor: Editor;
  typing: boolean;
  busy: boolean;
  /** Messages typed while the planner answered, sent once it waits again. */
  queued?: string | null;
}

/** The non-modal line(s) above the status bar: the goal box, the next round, a failure, the end. */
export function Banner({ view, editor, typing, busy, queued = null }: BannerProps) {
  const a = view.awaiting;
  const stopKey = bindingOf('stop').keys[0]?.label ?? 's';
  if (view.stopped) {
    return (
      <Box flexDirection="column" borderStyle="single" borderColor="red" paddingX={1}>
        <Text color="red" bold>
          ✗ The run stopped; no agent runs any more.
        </Text>
        <Text wrap="wrap">{view.stopped.message}</Text>
        <Text dimColor wrap="wrap">
          q: leave (exit code {view.stopped.exitCode}) · the tabs stay readable · start agent-collab again to resume the
          run
        </Text>
      </Box>
    );
  }
  if (view.finished) {
    const color = view.finished === 'DONE' ? 'green' : 'yellow';
    const ended = view.finished === 'DONE' ? 'Run finished.' : 'Run cancelled.';
    if (!view.report) return <Text color={color}>{ended} n: new goal · q: leave</Text>;
    const r = view.report;
    return (
      <Box flexDirection="column" borderStyle="single" borderColor={color} paddingX={1}>
        <Text color={color} bold>
          {ended} Report: {r.status}
        </Text>
        <Text wrap="wrap">{describeReport(r)}</Text>
        <Text wrap="wrap">Report: {r.path}</Text>
        <Text dimColor>n: new goal · q: leave · the tabs stay readable (the Conversation tab scrolls)</Text>
      </Box>
    );
  }
  if (view.phase === 'REFINE_GOAL' && (a?.kind === 'goal' || busy)) {
    const canConfirm = editor.value.trim() !== '' || view.state.goal.trim() !== '';
    return <GoalInput editor={editor} active={typing} busy={busy} canConfirm={canConfirm} queued={queued} />;
  }
  if (a?.kind === 'go' && !busy) {
    return (
      <Text color="cyan" wrap="truncate">
        Next: {whoRuns(a.action)} — {describeAction(a.action, view.state)}. Enter: let it through · a: auto mode
      </Text>
    );
  }
  if (a?.kind === 'failure' && !busy) {
    return (
      <Box flexDirection="column" borderStyle="single" borderColor="red" paddingX={1}>
        <Text color="red" wrap="truncate">
          ✗ {a.role ?? 'agent-collab'} failed ({a.failure}): {a.message}
        </Text>
        <Text dimColor>
          {keyOf('failure', 'retry')} · {stopKey}: stop · Ctrl+C: quit (state is saved)
        </Text>
      </Box>
    );
  }
  return null;
}
