// Ink's Box and Text, minus colours when colours are off (NO_COLOR, https://no-color.org): every TUI component
// imports them from here, so no colour can slip through. Bold, dim and inverse are styles, not colours: they stay.
// Text also shows the control characters of its strings instead of passing them to the terminal (goals, agent
// text, commands, file contents): Ink's own styling is added around them and still works.
import { Box as InkBox, Text as InkText, type BoxProps, type DOMElement, type TextProps } from 'ink';
import { createContext, useContext, type PropsWithChildren, type ReactNode, type Ref } from 'react';
import { neutralizeControls } from '../core/terminal-text.js';

/** NO_COLOR set to anything but the empty string turns colours off. */
export function colorsWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.NO_COLOR;
}

export const ColorContext = createContext<boolean>(colorsWanted());

/** Strings (at any depth of arrays) with their control characters made visible; elements are left to themselves. */
function shown(children: ReactNode): ReactNode {
  if (typeof children === 'string') return neutralizeControls(children);
  if (Array.isArray(children)) return children.map((c: ReactNode) => shown(c));
  return children;
}

export function Text(props: TextProps) {
  const colors = useContext(ColorContext);
  const children = shown(props.children);
  return colors ? (
    <InkText {...props}>{children}</InkText>
  ) : (
    <InkText {...props} color={undefined} backgroundColor={undefined}>
      {children}
    </InkText>
  );
}

export function Box(props: PropsWithChildren<BoxProps> & { ref?: Ref<DOMElement> }) {
  const colors = useContext(ColorContext);
  if (colors) return <InkBox {...props} />;
  const plain = {
    ...props,
    borderColor: undefined,
    borderTopColor: undefined,
    borderBottomColor: undefined,
    borderLeftColor: undefined,
    borderRightColor: undefined,
    backgroundColor: undefined,
  };
  return <InkBox {...plain} />;
}
