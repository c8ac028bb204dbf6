import { Box, Text } from '../styled.js';
import { EditorBox } from '../EditorBox.js';
import type { Editor } from '../line-editor.js';
import { useDialogKeys } from '../key-router.js';
import { useState } from 'react';
import type { Role } from '../../core/types.js';
import { useTextField } from '../use-text-field.js';
import { keyOf } from '../decision-keys.js';
import { Frame } from './Frame.js';

const MAX_QUESTION_LINES = 8;

/** An agent's question with an answer box; Enter sends the answer. */
export function QuestionDialog({
  role,
  text,
  onAnswer,
}: {
  role: Role;
  text: string;
  onAnswer: (answer: string) => void;
}) {
  const [answer, setAnswer] = useState('');
  const field = useTextField(answer, setAnswer, (v) => {
    if (v.trim()) onAnswer(v.trim());
  });
  useDialogKeys((input, key, info) => void field.onKey(input, key, info));
  const lines = text.split(/\r?\n/);
  const shown =
    lines.length > MAX_QUESTION_LINES
      ? [
          ...lines.slice(0, MAX_QUESTION_LINES),
          `… (${lines.length - MAX_QUESTION_LINES} more line(s) in the Conversation tab)`,
        ]
      : lines;
  return (
    <Frame title={`The ${role} asks:`} keys={keyOf('question', 'answer')}>
      <Text>{shown.join('\n')}</Text>
      <AnswerBox label="answer" editor={field.editor} />
    </Frame>
  );
}

/** The box the person types into, with its cursor: the line editor's keys, lines and history (EditorBox). */
export function AnswerBox({ label, editor }: { label: string; editor: Editor }) {
  // The dialog's frame and this box: two borders and two paddings each side.
  return (
    <Box borderStyle="round" borderColor="green" paddingX={1}>
      <EditorBox label={`${label} › `} editor={editor} active inset={8} />
    </Box>
  );
}
