// The TUI's first frame, drawn as soon as Ink is loaded: the tab bar and a status line while the session opens
// (repo, config, lock, hook server, agents). The App replaces it once the engine is ready.
import { Box, Text } from './styled.js';
import { TabBar } from './TabBar.js';
import { useTerminalSize } from './use-terminal-size.js';

const NOTHING_OPENED: ReadonlySet<never> = new Set();

export function OpeningScreen() {
  const { rows, columns } = useTerminalSize();
  return (
    <Box flexDirection="column" height={Math.max(8, rows - 1)} width={columns}>
      <TabBar tab="conversation" opened={NOTHING_OPENED} right="" />
      <Box flexGrow={1} />
      <Text dimColor>opening the session…</Text>
    </Box>
  );
}
