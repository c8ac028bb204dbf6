// The one line under the tabs for the last rejection, error or notice, coloured by its tone.
import { Text } from './styled.js';
import type { Tone, ViewState } from './view-model.js';

const TONE_COLOR: Record<Tone, string | undefined> = { error: 'red', warn: 'yellow', good: 'green', info: undefined };

export function FlashLine({ flash }: { flash: ViewState['flash'] }) {
  if (!flash) return null;
  return (
    <Text wrap="truncate" color={TONE_COLOR[flash.tone]}>
      {flash.text}
    </Text>
  );
}
