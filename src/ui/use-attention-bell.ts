// The bell (and a desktop notification where the terminal shows one): once per new question to the person, a held
// command, or a run that stopped — compared by value, so a re-published state is not new.
import { useEffect, useRef } from 'react';
import type { PendingCommand } from '../core/types.js';
import { waitingText } from './StatusBar.js';
import type { ViewState } from './view-model.js';

export function useAttentionBell(
  view: ViewState,
  pending: PendingCommand | null,
  onAttention: ((what: string) => void) | undefined,
): void {
  const lastAwaiting = useRef<string | null>(null);
  const lastPending = useRef<string | null>(null);
  useEffect(() => {
    const awaitingKey = view.awaiting ? JSON.stringify(view.awaiting) : null;
    if (pending && pending.id !== lastPending.current) onAttention?.(`the ${pending.role} wants to run a command`);
    // A run parked until a usage limit resets goes on by itself: nothing to call the person for.
    else if (awaitingKey && awaitingKey !== lastAwaiting.current && view.awaiting?.kind !== 'usage_limit')
      onAttention?.(waitingText(view));
    lastAwaiting.current = awaitingKey;
    lastPending.current = pending?.id ?? null;
  }, [view.awaiting, pending, onAttention]);
  useEffect(() => {
    if (view.stopped) onAttention?.('the run stopped');
  }, [view.stopped, onAttention]);
}
