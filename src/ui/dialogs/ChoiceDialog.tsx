import type { ReactNode } from 'react';
import { useState } from 'react';
import { useDialogKeys } from '../key-router.js';
import { dialogKeyMatches, type DialogOption } from '../keymap.js';
import { Box, Text } from '../styled.js';
import { Frame } from './Frame.js';

export interface ChoiceDialogProps<C extends string> {
  title: string;
  options: readonly DialogOption<C>[];
  onChoose: (choice: C) => void;
  color?: string;
  children?: ReactNode;
}

/** A dialog of lettered choices. A choice marked `confirm` needs a second, explicit key: `y`. */
export function ChoiceDialog<C extends string>({ title, options, onChoose, color, children }: ChoiceDialogProps<C>) {
  const [armed, setArmed] = useState<DialogOption<C> | null>(null);
  useDialogKeys((input, key) => {
    if (key.ctrl) return;
    if (armed) {
      if (input.toLowerCase() === 'y') onChoose(armed.choice);
      setArmed(null);
      return;
    }
    const picked = options.find((o) => dialogKeyMatches(o.keys, input, key));
    if (!picked) return;
    if (picked.confirm) setArmed(picked);
    else onChoose(picked.choice);
  });
  const keys = armed ? 'y: yes, do it · any other key: back' : options.map((o) => `${o.keys.join('/')}: ${o.label}`).join(' · ');
  return (
    <Frame title={title} keys={keys} color={color}>
      {children}
      {armed ? (
        <Box marginTop={1}>
          <Text color="red" bold>
            {armed.confirm} [y/N]
          </Text>
        </Box>
      ) : null}
    </Frame>
  );
}
