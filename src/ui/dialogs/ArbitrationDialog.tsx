import { Box, Text } from '../styled.js';
import { useDialogKeys } from '../key-router.js';
import { useState } from 'react';
import { DECISIONS, type Choice } from '../../core/decisions.js';
import { keyPicks } from '../decision-keys.js';
import { Frame } from './Frame.js';

export interface ArbitrationDialogProps {
  iteration: number;
  /** A choice of the decisions table's arbitration question; `rounds` for "continue". */
  onChoose: (choice: string, rounds?: number) => void;
  /** The code review's cap (issue 19) asks the same way, with its own choices and title. */
  options?: readonly Choice[];
  title?: string;
}

/** At the iteration cap: ↑/↓ + Enter or the choice's number; "continue" then asks for the number of rounds. */
export function ArbitrationDialog({
  iteration,
  onChoose,
  options = DECISIONS.arbitration.choices,
  title,
}: ArbitrationDialogProps) {
  const OPTIONS = options;
  const NUMBERS = `${OPTIONS[0]?.keys[0] ?? ''}-${OPTIONS[OPTIONS.length - 1]?.keys[0] ?? ''}`;
  const [selected, setSelected] = useState(0);
  const [rounds, setRounds] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const pick = (opt: Choice | undefined): void => {
    if (!opt) return;
    if (opt.id === 'continue') {
      setRounds('2');
      setError(null);
    } else onChoose(opt.id);
  };

  useDialogKeys((input, key) => {
    if (key.ctrl) return;
    if (rounds !== null) {
      if (key.escape) setRounds(null);
      else if (key.backspace || key.delete) setRounds(rounds.slice(0, -1));
      else if (/^\d+$/.test(input)) setRounds((rounds + input).slice(0, 3));
      else if (key.return) {
        const n = Number(rounds);
        if (!Number.isInteger(n) || n < 1 || n > 100) setError('a whole number from 1 to 100');
        else onChoose('continue', n);
      }
      return;
    }
    if (key.upArrow) setSelected((s) => (s + OPTIONS.length - 1) % OPTIONS.length);
    else if (key.downArrow) setSelected((s) => (s + 1) % OPTIONS.length);
    else if (key.return) pick(OPTIONS[selected]);
    else pick(OPTIONS.find((o) => keyPicks(o.keys, input, key)));
  });

  const keys = rounds !== null ? 'digits: rounds · Enter: continue · Esc: back' : `↑/↓ + Enter, or ${NUMBERS}`;
  return (
    <Frame title={title ?? `The reviewer still asks for changes after ${iteration} rounds. What now?`} keys={keys}>
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
    </Frame>
  );
}
