// One keyboard listener for the whole App. A dialog that owns the keyboard registers its handler here while it
// renders (not in an effect), so a key pressed right after it appears already reaches it.
import type { Key } from 'ink';
import { createContext, useContext, useEffect } from 'react';
import { useKeys, type KeyInfo } from './use-keys.js';

/**
 * A dialog's key handler. It returns false for a key the dialog does not declare: the App then lets that key switch
 * tabs or scroll, so what the person decides on can be read first. Any other return keeps the key in the dialog.
 */
export type KeyHandler = (input: string, key: Key, info?: KeyInfo) => boolean | void;

export interface KeyRouter {
  dialog: KeyHandler | null;
}

export const KeyRouterContext = createContext<KeyRouter | null>(null);

/** A dialog's keys: through the App's router when inside one, else (a dialog rendered alone) its own listener. */
export function useDialogKeys(handler: KeyHandler): void {
  const router = useContext(KeyRouterContext);
  if (router) router.dialog = handler;
  useEffect(() => () => {
    if (router && router.dialog === handler) router.dialog = null;
  });
  useKeys(handler, { isActive: router === null });
}
