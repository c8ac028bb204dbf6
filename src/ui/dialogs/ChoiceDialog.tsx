import type { ReactNode } from 'react';
import { useState } from 'react';
import type { Choice } from '../../core/decisions.js';
import { choiceKeysText, keyPicks } from '../decision-keys.js';
import { useDialogKeys } from '../key-router.js';
import { Box, Text } from '../styled.js';
import { Frame } from './Frame.js';

export interface ChoiceDialogProps {
  title: string;
  /** From the decisions table: each choice's keys pick it. */
  options: readonly Choice[];
  onChoose: (choice: string) => void;
  color?: string;
  children?: ReactNode;
}

/** A dialog of lettered choices. A choice marked `confirm` needs a second, explicit key: `y`. */
export function ChoiceDialog({ title, options, onChoose, color, children }: ChoiceDialogProps) {
  const [armed, setArmed] = useState<Choice | null>(null);
  useDialogKeys((input, key) => {
    if (key.ctrl) return false; // Ctrl+D / Ctrl+U scroll the tab under the dialog
    if (armed) {
      if (input.toLowerCase() === 'y') onChoose(armed.id);
      setArmed(null);
      return;
    }
    const picked = options.find((o) => keyPicks(o.keys, input, key));
    if (!picked) return false; // not a choice: the tabs and scrolling may have it
    if (picked.confirm) setArmed(picked);
    else onChoose(picked.id);
  });
  const keys = armed ? CONFIRM_KEYS : choiceKeysText(options);
  return (
    <Frame title={title} keys={keys} color={color}>
      {children}
      {armed ? <ConfirmLine choice={armed} /> : null}
    </Frame>
  );
}

/** The key line while a choice marked `confirm` in the decisions table waits for its `y`. */
export const CONFIRM_KEYS = 'y: yes, do it · any other key: back';

/** The question a choice marked `confirm` asks before it is sent. */
export function ConfirmLine({ choice }: { choice: Choice }) {
  return (
    <Box marginTop={1}>
      <Text color="red" bold>
        {choice.confirm} [y/N]
      </Text>
    </Box>
  );
}
