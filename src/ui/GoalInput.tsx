import { EditorBox } from './EditorBox.js';
import type { Editor } from './line-editor.js';
import { Box, Text } from './styled.js';

export interface GoalInputProps {
  /** The text and its cursor. */
  editor: Editor;
  /** The box has the keyboard (Esc toggles). */
  active: boolean;
  /** The planner is answering: nothing can be sent yet. */
  busy: boolean;
  /** A goal is typed or stated: Ctrl+G / `/ready` is offered (the engine refuses it without one). */
  canConfirm?: boolean;
  /** Sent while the planner answered: it goes to the planner once it waits again. */
  queued?: string | null;
}

/**
 * The goal box of goal refinement: Enter sends a message to the planner; `/ready` (or Ctrl+G) confirms the goal.
 * Its keys are routed by the App (one always-mounted listener), so nothing typed right after it appears is lost.
 */
export function GoalInput({ editor, active, busy, canConfirm = true, queued = null }: GoalInputProps) {
  const ready = canConfirm ? ' · Ctrl+G or /ready: the goal is ready, write the plan' : '';
  const hint = busy
    ? queued !== null
      ? `queued, sent when the planner has answered: ${queued.replace(/\n/g, ' · ')}`
      : active
        ? 'the planner is answering… type ahead: Enter queues your message · Esc: interrupt the planner'
        : 'the planner is answering…'
    : active
      ? `Enter: send to the planner${ready} · Ctrl+J: new line · ↑: earlier ones · Esc: keys`
      : 'Esc: back to typing';
  return (
    <Box flexDirection="column">
      <Box borderStyle="round" borderColor={active && !busy ? 'green' : 'gray'} paddingX={1}>
        {/* A long line scrolls so the cursor stays in sight (the end, when the cursor is there); more lines grow
            the box up to a few rows. Border and padding take 4 columns. */}
        <EditorBox label="goal › " editor={editor} active={active} inset={4} />
      </Box>
      <Text dimColor wrap="truncate">
        {hint}
      </Text>
    </Box>
  );
}
