import type { Awaiting } from '../../core/types.js';
import { BUDGET_KEYS, describeBudget } from '../../core/budget.js';
import { DECISIONS, type Choice } from '../../core/decisions.js';
import { keyOf, keyPicks, tuiChoices } from '../decision-keys.js';
import { useDialogKeys } from '../key-router.js';
import { Text } from '../styled.js';
import { oneLine } from '../view-model.js';
import { ChoiceDialog } from './ChoiceDialog.js';
import { Frame } from './Frame.js';

const DONE: Choice = DECISIONS.manual_edit.choices[0];

/** After "edit manually": the person edits plan.md (e opens it), then says it is done. */
export function ManualEditDialog({ onEdit, onDone }: { onEdit: () => void; onDone: () => void }) {
  useDialogKeys((input, key) => {
    if (key.ctrl) return;
    if (input.toLowerCase() === 'e') onEdit();
    else if (keyPicks(DONE.keys, input, key)) onDone();
    else return false; // the tabs and scrolling may have it: plan.md and the comments can be read meanwhile
  });
  return (
    <Frame title="Edit plan.md by hand" keys={`e: open plan.md in $EDITOR · ${keyOf('manual_edit', 'edited')}`}>
      <Text>When you are done, the reviewer reads the edited plan.</Text>
    </Frame>
  );
}

const CODE_DONE: Choice = DECISIONS.code_edit.choices[0];

/** At the code review's cap, "edit": the person edits the code, then says it is done (its diff goes to review). */
export function CodeEditDialog({ onDone }: { onDone: () => void }) {
  useDialogKeys((input, key) => {
    if (key.ctrl) return;
    if (keyPicks(CODE_DONE.keys, input, key)) onDone();
    else return false; // the tabs and scrolling may have it
  });
  return (
    <Frame title="Edit the code by hand" keys={keyOf('code_edit', 'edited')}>
      <Text>Edit the files in your editor; when you are done, the reviewer reads the diff again.</Text>
    </Frame>
  );
}

/** The reviewer twice gave no readable verdict. */
export function UnclearVerdictDialog({
  awaiting: a,
  onChoose,
}: {
  awaiting: Extract<Awaiting, { kind: 'unclear_verdict' }>;
  onChoose: (choice: string) => void;
}) {
  return (
    <ChoiceDialog title="The reviewer's answer has no readable verdict" options={tuiChoices(a)} onChoose={onChoose}>
      <Text dimColor>{oneLine(a.text, 300) || '(empty answer)'}</Text>
    </ChoiceDialog>
  );
}

/** A budget of the run is spent: the round waits (or was stopped) until the person raises the cap or stops. */
export function BudgetDialog({
  awaiting: a,
  onChoose,
}: {
  awaiting: Extract<Awaiting, { kind: 'budget' }>;
  onChoose: (choice: string) => void;
}) {
  return (
    <ChoiceDialog
      title={`Budget reached: ${BUDGET_KEYS[a.budget]} (${describeBudget(a)})`}
      options={tuiChoices(a)}
      onChoose={onChoose}
      color="yellow"
    >
      <Text wrap="wrap">
        The {a.action.kind} round waits. Raising adds the configured cap once more for this run; you can also raise it
        in the config and resume.
      </Text>
    </ChoiceDialog>
  );
}
