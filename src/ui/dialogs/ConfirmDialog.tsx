import { Text } from '../styled.js';
import { useDialogKeys } from '../key-router.js';
import { Frame } from './Frame.js';
import { RESUME_PROMPT, type Choice, type ResumeChoice } from '../../core/decisions.js';
import { choiceKeysText, keyPicks } from '../decision-keys.js';

export interface ConfirmDialogProps {
  title: string;
  body?: string;
  /** Enter means yes (`[Y/n]`) instead of no (`[y/N]`). */
  defaultYes?: boolean;
  onYes: () => void;
  onNo: () => void;
  /** Ctrl+C while the dialog is open (only where nothing else handles it, e.g. before the App starts). */
  onInterrupt?: () => void;
}

/** A yes/no question that owns the keyboard: y / n, Esc = no, Enter = the default. */
export function ConfirmDialog({ title, body, defaultYes = false, onYes, onNo, onInterrupt }: ConfirmDialogProps) {
  useDialogKeys((input, key) => {
    if (key.ctrl) {
      if (input === 'c') onInterrupt?.();
      return;
    }
    const c = input.toLowerCase();
    if (c === 'y') onYes();
    else if (c === 'n' || key.escape) onNo();
    else if (key.return) (defaultYes ? onYes : onNo)();
  });
  return (
    <Frame
      title={`${title} ${defaultYes ? '[Y/n]' : '[y/N]'}`}
      keys={`y: yes · n / Esc: no · Enter: ${defaultYes ? 'yes' : 'no'}`}
    >
      {body ? <Text>{body}</Text> : null}
    </Frame>
  );
}

/** On start, when the repo has an unfinished run. */
export interface ResumeDialogProps {
  phase: string;
  iteration: number;
  goal: string;
  onAnswer: (choice: ResumeChoice) => void;
  onInterrupt?: () => void;
}

/** The choices of the decisions table's RESUME_PROMPT: Enter resumes, `a` archives, Esc leaves with nothing changed. */
export function ResumeDialog({ phase, iteration, goal, onAnswer, onInterrupt }: ResumeDialogProps) {
  const choices: readonly Choice[] = RESUME_PROMPT.choices;
  useDialogKeys((input, key) => {
    if (key.ctrl) {
      if (input === 'c') onInterrupt?.();
      return;
    }
    const picked = choices.find((c) => keyPicks(c.keys, input, key));
    if (picked) onAnswer(picked.id as ResumeChoice);
  });
  return (
    <Frame
      title={`Unfinished session found (phase ${phase}, iteration ${iteration}). Resume?`}
      keys={choiceKeysText(choices)}
    >
      {goal ? <Text>{`goal: ${goal}`}</Text> : null}
    </Frame>
  );
}
