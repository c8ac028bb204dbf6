import { Box, Text } from '../styled.js';
import { useDialogKeys } from '../key-router.js';
import { useState } from 'react';
import type { ArbitrationChoice } from '../../core/types.js';
import { Frame } from './Frame.js';

export const ARBITRATION_OPTIONS: ReadonlyArray<{ choice: ArbitrationChoice; label: string }> = [
  { choice: 'force_approve', label: 'Force approve the plan' },
  { choice: 'continue', label: 'Continue for N more rounds' },
  { choice: 'edit', label: 'Edit plan.md by hand, then send it to review' },
  { choice: 'cancel', label: 'Cancel the run' },
];

export interface ArbitrationDialogProps {
  iteration: number;
  onChoose: (choice: ArbitrationChoice, rounds?: number) => void;
}

/** At the iteration cap: ↑/↓ + Enter or 1-4; "continue" then asks for the number of rounds. */
export function ArbitrationDialog({ iteration, onChoose }: ArbitrationDialogProps) {
  const [selected, setSelected] = useState(0);
  const [rounds, setRounds] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const pick = (i: number): void => {
    const opt = ARBITRATION_OPTIONS[i];
    if (!opt) return;
    if (opt.choice === 'continue') {
      setRounds('2');
      setError(null);
    } else onChoose(opt.choice);
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
    if (key.upArrow) setSelected((s) => (s + ARBITRATION_OPTIONS.length - 1) % ARBITRATION_OPTIONS.length);
    else if (key.downArrow) setSelected((s) => (s + 1) % ARBITRATION_OPTIONS.length);
    else if (key.return) pick(selected);
    else if (/^[1-4]$/.test(input)) pick(Number(input) - 1);
  });

  const keys = rounds !== null ? 'digits: rounds · Enter: continue · Esc: back' : '↑/↓ + Enter, or 1-4';
  return (
    <Frame title={`The reviewer still asks for changes after ${iteration} rounds. What now?`} keys={keys}>
      <Box flexDirection="column">
        {ARBITRATION_OPTIONS.map((o, i) => (
          <Text key={o.choice} color={i === selected ? 'cyan' : undefined} bold={i === selected}>
            {i === selected ? '›' : ' '} {i + 1}. {o.label}
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
