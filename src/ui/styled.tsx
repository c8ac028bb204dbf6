// Ink's Box and Text, minus colours when colours are off (NO_COLOR, https://no-color.org): every TUI component
// imports them from here, so no colour can slip through. Bold, dim and inverse are styles, not colours: they stay.
import { Box as InkBox, Text as InkText, type BoxProps, type DOMElement, type TextProps } from 'ink';
import { createContext, useContext, type PropsWithChildren, type Ref } from 'react';

/** NO_COLOR set to anything but the empty string turns colours off. */
export function colorsWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.NO_COLOR;
}

export const ColorContext = createContext<boolean>(colorsWanted());

export function Text(props: TextProps) {
  const colors = useContext(ColorContext);
  return colors ? <InkText {...props} /> : <InkText {...props} color={undefined} backgroundColor={undefined} />;
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
