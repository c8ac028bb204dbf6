import { Box, Text } from '../styled.js';
import { useDialogKeys } from '../key-router.js';
import { bindingOf, helpRows, type KeyContext } from '../keymap.js';
import { Frame } from './Frame.js';

/** Every key from the keymap; the ones that apply now are bright. Esc, ?, q or Enter closes it. */
export function HelpOverlay({ ctx, onClose }: { ctx: KeyContext; onClose: () => void }) {
  useDialogKeys((input, key) => {
    if (key.escape || key.return || input === '?' || input === 'q') onClose();
  });
  return (
    <Frame title="Keys" keys="Esc / ? / q: close" color="cyan">
      <Box flexDirection="column">
        {helpRows().map((r) => (
          <Text key={r.keys} dimColor={!r.commands.some((c) => bindingOf(c).when(ctx))} wrap="truncate">
            {r.keys.padEnd(22)} {r.description}
          </Text>
        ))}
      </Box>
    </Frame>
  );
}
