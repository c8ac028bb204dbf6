// Type-ahead for the goal box: what the person sends while the planner is still answering is kept, shown as
// queued, and sent as soon as the planner waits for them again (issue 20, defect 7: it was dropped silently).
import { useEffect, useRef, useState } from 'react';

export interface TypeAhead {
  /** The message(s) waiting to be sent, one per line; null when none. */
  queued: string | null;
  /** Keeps `text` for later (after what is already queued). */
  queue: (text: string) => void;
  /** Takes the queued text back unsent (the person stopped or interrupted the round it was waiting for). */
  take: () => string | null;
}

/** `canSend`: the planner waits for a message now; `send` then gets everything queued, as one message. */
export function useTypeAhead(canSend: boolean, send: (text: string) => void): TypeAhead {
  const [queued, setQueued] = useState<string | null>(null);
  const latestSend = useRef(send);
  latestSend.current = send;
  useEffect(() => {
    if (!canSend || queued === null) return;
    setQueued(null);
    latestSend.current(queued);
  }, [canSend, queued]);
  const latestQueued = useRef(queued);
  latestQueued.current = queued;
  return {
    queued,
    queue: (text) => setQueued((q) => (q === null ? text : `${q}\n${text}`)),
    take: () => {
      const q = latestQueued.current;
      latestQueued.current = null;
      setQueued(null);
      return q;
    },
  };
}
