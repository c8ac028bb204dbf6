import { Box, Text } from '../styled.js';
import type { ReactNode } from 'react';

/** The frame every dialog uses: a title, the body, and the dialog's own keys. */
export function Frame({
  title,
  keys,
  color = 'yellow',
  children,
}: {
  title: string;
  keys: string;
  color?: string;
  children?: ReactNode;
}) {
  return (
    <Box flexDirection="column" borderStyle="double" borderColor={color} paddingX={1}>
      <Text bold color={color}>
        {title}
      </Text>
      {children}
      <Text dimColor>{keys}</Text>
    </Box>
  );
}
