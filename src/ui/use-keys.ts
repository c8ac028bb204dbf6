import { useInput, useStdin, type Key } from 'ink';
import { useCallback, useEffect, useRef } from 'react';
import { pasteReader, type KeyInfo } from './paste.js';

export type { KeyInfo } from './paste.js';

/**
 * useInput with one listener for the component's lifetime that calls the latest handler, and only while
 * `isActive` (as of the latest render). Ink re-subscribes whenever the handler or isActive changes, in an
 * effect; a key arriving between a render and that effect would otherwise be lost or see stale state.
 *
 * The handler also gets the key's bytes (Ink reports Backspace and Delete alike) and gets a bracketed paste as one
 * text (`info.paste`): Ink 6.8 knows nothing of bracketed paste, and would hand its line breaks over as Enter.
 */
export function useKeys(
  handler: (input: string, key: Key, info: KeyInfo) => void,
  options: { isActive?: boolean } = {},
): void {
  const ref = useRef({ handler, active: options.isActive ?? true });
  ref.current = { handler, active: options.isActive ?? true };
  // Ink emits each key's bytes on its input emitter, then its useInput listeners parse them: a listener put first
  // sees the bytes of the key useInput is about to report.
  const { internal_eventEmitter: emitter } = useStdin();
  const raw = useRef('');
  const paste = useRef(pasteReader()).current;
  useEffect(() => {
    const onRaw = (data: string): void => {
      raw.current = data;
    };
    emitter.prependListener('input', onRaw);
    return () => void emitter.removeListener('input', onRaw);
  }, [emitter]);
  const stable = useCallback(
    (input: string, key: Key) => {
      if (!ref.current.active) return;
      for (const k of paste.read(raw.current, input, key)) ref.current.handler(k.input, k.key, k.info);
    },
    [paste],
  );
  useInput(stable);
}
