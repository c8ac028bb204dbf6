// After Esc stopped an agent's round: run it again (Enter), write a message it runs again with (m), or stop the
// phase (s, confirmed). The keys come from the decisions table's `interrupted` question.
import { useState } from 'react';
import type { Awaiting } from '../../core/types.js';
import { DECISIONS, type Choice } from '../../core/decisions.js';
import { tuiChoices } from '../decision-keys.js';
import { useDialogKeys } from '../key-router.js';
import { Text } from '../styled.js';
import { useTextField } from '../use-text-field.js';
import { describeAction } from '../view-model.js';
import { ChoiceDialog } from './ChoiceDialog.js';
import { Frame } from './Frame.js';
import { AnswerBox } from './QuestionDialog.js';

const MESSAGE: Choice = DECISIONS.interrupted.choices[1];

export function InterruptedDialog({
  awaiting: a,
  state,
  onChoose,
  onMessage,
}: {
  awaiting: Extract<Awaiting, { kind: 'interrupted' }>;
  state: Parameters<typeof describeAction>[1];
  onChoose: (choice: string) => void;
  onMessage: (text: string) => void;
}) {
  const [writing, setWriting] = useState(false);
  const title = `You interrupted the ${a.role} (${describeAction(a.action, state)}). What now?`;
  if (writing) return <MessageBox title={title} onSend={onMessage} onBack={() => setWriting(false)} />;
  return (
    <ChoiceDialog
      title={title}
      options={tuiChoices(a)}
      onChoose={(c) => (c === MESSAGE.id ? setWriting(true) : onChoose(c))}
    >
      <Text dimColor>The round was stopped; the phase is kept. What it said so far is in the Conversation tab.</Text>
    </ChoiceDialog>
  );
}

/** The message box: Enter sends (the round runs again with it), Esc goes back to the choices. */
function MessageBox({ title, onSend, onBack }: { title: string; onSend: (t: string) => void; onBack: () => void }) {
  const [text, setText] = useState('');
  const field = useTextField(text, setText, (v) => {
    if (v.trim()) onSend(v.trim());
  });
  useDialogKeys((input, key, info) => {
    if (key.escape) return onBack();
    void field.onKey(input, key, info);
  });
  return (
    <Frame title={title} keys="Enter: send it and run the round again · Esc: back">
      <AnswerBox label="message" editor={field.editor} />
    </Frame>
  );
}
