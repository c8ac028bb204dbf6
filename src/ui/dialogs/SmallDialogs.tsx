import { Text } from '../styled.js';
import { useDialogKeys } from '../key-router.js';
import { oneLine } from '../view-model.js';
import { Frame } from './Frame.js';

/** After "edit manually": the person edits plan.md, then says it is done. */
export function ManualEditDialog({ onEdit, onDone }: { onEdit: () => void; onDone: () => void }) {
  useDialogKeys((input, key) => {
    if (key.ctrl) return;
    if (input.toLowerCase() === 'e') onEdit();
    else if (key.return) onDone();
  });
  return (
    <Frame title="Edit plan.md by hand" keys="e: open plan.md in $EDITOR · Enter: done, send it to review">
      <Text>When you are done, the reviewer reads the edited plan.</Text>
    </Frame>
  );
}

/** The reviewer twice gave no readable verdict. */
export function UnclearVerdictDialog({ text, onChoose }: { text: string; onChoose: (choice: 'retry' | 'changes_required') => void }) {
  useDialogKeys((input, key) => {
    if (key.ctrl) return;
    const c = input.toLowerCase();
    if (c === 'r') onChoose('retry');
    else if (c === 'c') onChoose('changes_required');
  });
  return (
    <Frame title="The reviewer's answer has no readable verdict" keys="r: ask the reviewer again · c: treat it as CHANGES_REQUIRED">
      <Text dimColor>{oneLine(text, 300) || '(empty answer)'}</Text>
    </Frame>
  );
}
