import { Box, Text } from '../styled.js';
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
  useDialogKeys((input, key) => void field.onKey(input, key));
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
      <AnswerBox label="answer" text={answer} />
    </Frame>
  );
}

/** A one-line box the person types into (the end of a long text stays in sight), with its cursor. */
export function AnswerBox({ label, text }: { label: string; text: string }) {
  return (
    <Box borderStyle="round" borderColor="green" paddingX={1}>
      <Text color="green">{label} › </Text>
      <Text wrap="truncate-start">{text}</Text>
      <Text inverse> </Text>
    </Box>
  );
}
