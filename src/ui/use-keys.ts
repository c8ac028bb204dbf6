import { useInput, type Key } from 'ink';
import { useCallback, useRef } from 'react';

/**
 * useInput with one listener for the component's lifetime that calls the latest handler, and only while
 * `isActive` (as of the latest render). Ink re-subscribes whenever the handler or isActive changes, in an
 * effect; a key arriving between a render and that effect would otherwise be lost or see stale state.
 */
export function useKeys(handler: (input: string, key: Key) => void, options: { isActive?: boolean } = {}): void {
  const ref = useRef({ handler, active: options.isActive ?? true });
  ref.current = { handler, active: options.isActive ?? true };
  const stable = useCallback((input: string, key: Key) => {
    if (ref.current.active) ref.current.handler(input, key);
  }, []);
  useInput(stable);
}
