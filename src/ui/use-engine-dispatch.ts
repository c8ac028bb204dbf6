// Sends the person's events to the engine. The dialog that sent one stays closed while the engine takes it, and
// opens again if the engine refuses it; an error comes back as a notice.
import { useState } from 'react';
import type { EngineEvent } from '../core/events.js';
import type { Awaiting } from '../core/types.js';
import type { EngineLike } from './ports.js';
import type { ViewAction } from './view-model.js';

export interface EngineDispatch {
  /** `fromDialog`: the awaiting dialog answered. */
  dispatch: (event: EngineEvent, fromDialog?: boolean) => void;
  /** What the awaiting dialog last answered (it is not shown again). */
  answered: Awaiting | null;
  /** The id of the held command last decided on (its dialog is not shown again). */
  answeredCommand: string | null;
}

export function useEngineDispatch(
  engine: EngineLike,
  send: (action: ViewAction) => void,
  opts: {
    /** A stopped run: nothing reaches its engine. */
    stopped: boolean;
    awaiting: Awaiting | null;
    /** A stop or an interruption is sent: the round under way ends. */
    onRoundEnds: () => void;
  },
): EngineDispatch {
  const [answered, setAnswered] = useState<Awaiting | null>(null);
  const [answeredCommand, setAnsweredCommand] = useState<string | null>(null);

  const dispatch = (event: EngineEvent, fromDialog = false): void => {
    if (opts.stopped) return;
    if (event.type === 'stop' || event.type === 'interrupt' || (event.type === 'decide' && event.choice === 'stop'))
      opts.onRoundEnds();
    send({ type: 'sent', event });
    if (fromDialog) setAnswered(opts.awaiting);
    const command = event.type === 'decide' && event.on === 'command';
    if (command) setAnsweredCommand(event.id);
    void engine.dispatch(event).then(
      (ok) => {
        if (!ok && fromDialog) setAnswered(null);
        if (!ok && command) setAnsweredCommand(null);
      },
      (err: unknown) =>
        send({ type: 'ui_notice', text: err instanceof Error ? err.message : String(err), tone: 'error' }),
    );
  };

  return { dispatch, answered, answeredCommand };
}
