import { Text } from '../styled.js';
import { useDialogKeys } from '../key-router.js';
import { Frame } from './Frame.js';

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
  onAnswer: (resume: boolean) => void;
  onInterrupt?: () => void;
}

export function ResumeDialog({ phase, iteration, goal, onAnswer, onInterrupt }: ResumeDialogProps) {
  return (
    <ConfirmDialog
      title={`Unfinished session found (phase ${phase}, iteration ${iteration}). Resume?`}
      body={
        goal
          ? `goal: ${goal}\nNo: the run is archived to .agent-collab/history/ and a new one starts.`
          : 'No: the run is archived to .agent-collab/history/ and a new one starts.'
      }
      defaultYes
      onYes={() => onAnswer(true)}
      onNo={() => onAnswer(false)}
      onInterrupt={onInterrupt}
    />
  );
}
