import type { Key } from 'ink';
import { Box, Text } from '../styled.js';
import { useDialogKeys } from '../key-router.js';
import { useRef, useState, type ReactNode } from 'react';
import { DECISIONS, type Choice } from '../../core/decisions.js';
import { keyPicks } from '../decision-keys.js';
import { Frame } from './Frame.js';
import { CONFIRM_KEYS, ConfirmLine } from './ChoiceDialog.js';

/** The rounds offered when "continue" is picked; the first digit typed replaces it. */
const DEFAULT_ROUNDS = '2';

export interface ArbitrationDialogProps {
  iteration: number;
  /** A choice of the decisions table's arbitration question; `rounds` for "continue". */
  onChoose: (choice: string, rounds?: number) => void;
  /** The code review's cap (issue 19) asks the same way, with its own choices and title. */
  options?: readonly Choice[];
  title?: string;
  /** Shown above the choices (the disagreement brief's entries). */
  children?: ReactNode;
}

interface Form {
  selected: number;
  /** null: the menu; else the rounds field. */
  rounds: string | null;
  /** The rounds field still holds the default: a digit replaces it instead of being appended. */
  prefilled: boolean;
  /** A choice marked `confirm` in the table waits for `y` (as every confirmation in the TUI). */
  armed: Choice | null;
  error: string | null;
}

const MENU: Form = { selected: 0, rounds: null, prefilled: false, armed: null, error: null };

/** At the iteration cap: ↑/↓ + Enter or the choice's number; "continue" then asks for the number of rounds. */
export function ArbitrationDialog({
  iteration,
  onChoose,
  options = DECISIONS.arbitration.choices,
  title,
  children,
}: ArbitrationDialogProps) {
  const OPTIONS = options;
  const NUMBERS = `${OPTIONS[0]?.keys[0] ?? ''}-${OPTIONS[OPTIONS.length - 1]?.keys[0] ?? ''}`;
  // Mirrored in a ref: keys that arrive faster than React re-renders (`2`, BSpace, `1`, Enter) see the latest form.
  const form = useRef<Form>(MENU);
  const [shown, setShown] = useState<Form>(MENU);
  const update = (patch: Partial<Form>): void => {
    form.current = { ...form.current, ...patch };
    setShown(form.current);
  };

  const pick = (opt: Choice | undefined): void => {
    if (!opt) return;
    if (opt.id === 'continue') update({ rounds: DEFAULT_ROUNDS, prefilled: true, error: null });
    else if (opt.confirm) update({ armed: opt });
    else onChoose(opt.id);
  };

  const onRoundsKey = (rounds: string, input: string, key: Key): void => {
    if (key.escape) update({ rounds: null, error: null });
    else if (key.backspace || key.delete)
      update({ rounds: form.current.prefilled ? '' : rounds.slice(0, -1), prefilled: false });
    else if (/^\d+$/.test(input))
      update({ rounds: ((form.current.prefilled ? '' : rounds) + input).slice(0, 3), prefilled: false, error: null });
    else if (key.return) {
      const n = Number(rounds);
      if (!rounds || !Number.isInteger(n) || n < 1 || n > 100) update({ error: 'a whole number from 1 to 100' });
      else onChoose('continue', n);
    }
  };

  useDialogKeys((input, key) => {
    if (key.ctrl) return;
    const { armed, rounds, selected } = form.current;
    if (armed) {
      if (input.toLowerCase() === 'y') onChoose(armed.id);
      update({ armed: null });
      return;
    }
    if (rounds !== null) return onRoundsKey(rounds, input, key);
    if (key.upArrow) update({ selected: (selected + OPTIONS.length - 1) % OPTIONS.length });
    else if (key.downArrow) update({ selected: (selected + 1) % OPTIONS.length });
    else if (key.return) pick(OPTIONS[selected]);
    else {
      const picked = OPTIONS.find((o) => keyPicks(o.keys, input, key));
      if (!picked) return false; // not a choice: the tabs and scrolling may have it
      pick(picked);
    }
  });

  const { selected, rounds, armed, error } = shown;
  const keys = armed
    ? CONFIRM_KEYS
    : rounds !== null
      ? 'digits: rounds · Enter: continue · Esc: back'
      : `↑/↓ + Enter, or ${NUMBERS}`;
  return (
    <Frame
      title={
        title ??
        `The reviewer still asks for changes after ${iteration} ${iteration === 1 ? 'round' : 'rounds'}. What now?`
      }
      keys={keys}
    >
      {children}
      <Box flexDirection="column">
        {OPTIONS.map((o, i) => (
          <Text key={o.id} color={i === selected ? 'cyan' : undefined} bold={i === selected}>
            {i === selected ? '›' : ' '} {o.keys[0]}. {o.label}
          </Text>
        ))}
      </Box>
      {rounds !== null ? (
        <Text>
          More rounds: <Text inverse>{rounds || ' '}</Text>
          {error ? <Text color="red"> {error}</Text> : null}
        </Text>
      ) : null}
      {armed ? <ConfirmLine choice={armed} /> : null}
    </Frame>
  );
}
