// Shared helpers for the TUI tests: a scriptable fake engine, key sequences and a polling wait.
import { render } from 'ink-testing-library';
import type { EngineEvent, EngineOutput } from '../../../src/core/events.js';
import type { WorkflowState } from '../../../src/core/types.js';
import { App, type AppProps } from '../../../src/ui/App.js';
import type { EngineLike, FilesReader } from '../../../src/ui/ports.js';
import { stateIn } from '../../helpers/states.js';

export const KEY = {
  enter: '\r',
  tab: '\t',
  shiftTab: '\u001b[Z',
  esc: '\u001b',
  up: '\u001b[A',
  down: '\u001b[B',
  pageUp: '\u001b[5~',
  pageDown: '\u001b[6~',
  home: '\u001b[H',
  end: '\u001b[F',
  backspace: '\u007f',
  ctrlC: '\u0003',
  ctrlG: '\u0007',
} as const;

/** An engine that records what it is sent and publishes what the test says. */
export class FakeEngine implements EngineLike {
  state: WorkflowState;
  readonly sent: EngineEvent[] = [];
  private readonly listeners = new Set<(out: EngineOutput) => void>();
  /** What dispatch resolves with (false = rejected). */
  accept = true;

  constructor(state: WorkflowState) {
    this.state = state;
  }

  dispatch(event: EngineEvent): Promise<boolean> {
    this.sent.push(event);
    return Promise.resolve(this.accept);
  }

  subscribe(listener: (out: EngineOutput) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(out: EngineOutput): void {
    for (const l of this.listeners) l(out);
  }

  /** Replaces the state and publishes it (and what it waits for, as the real engine does). */
  set(patch: Partial<WorkflowState>): void {
    this.state = { ...this.state, ...patch };
    this.emit({ type: 'state', state: this.state });
    if (this.state.awaiting) this.emit({ type: 'awaiting', awaiting: this.state.awaiting, phase: this.state.phase });
  }

  types(): string[] {
    return this.sent.map((e) => e.type);
  }
}

export function fakeFiles(
  texts: { plan?: string | null; comments?: string | null; log?: string | null; debug?: string | null } = {},
): FilesReader & { texts: typeof texts } {
  const f = {
    texts: { ...texts },
    readPlan: () => Promise.resolve(f.texts.plan ?? null),
    readComments: () => Promise.resolve(f.texts.comments ?? null),
    readLog: () => Promise.resolve(f.texts.log ?? null),
    readDebugTail: () => Promise.resolve(f.texts.debug ?? null),
  };
  return f;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it stops throwing (or the time is up, then throws its last error). */
export async function waitFor(check: () => void, timeoutMs = 2000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (err) {
      if (Date.now() > end) throw err;
      await sleep(10);
    }
  }
}

/** Resolves once Ink reads the keyboard (its listener is attached in an effect after the first render). */
export async function listening(stdin: { listenerCount: (event: string) => number }): Promise<void> {
  await waitFor(() => {
    if (stdin.listenerCount('readable') === 0) throw new Error('Ink is not reading stdin yet');
  });
  await sleep(5);
}

export type Rendered = ReturnType<typeof render> & {
  engine: FakeEngine;
  /** Writes keys one at a time, letting the App re-render (and re-subscribe its input hooks) in between. */
  press: (...keys: string[]) => Promise<void>;
  type: (text: string) => Promise<void>;
  frame: () => string;
};

export async function renderApp(
  state: Partial<WorkflowState> & { phase?: WorkflowState['phase'] } = {},
  props: Partial<AppProps> = {},
): Promise<Rendered> {
  const engine = new FakeEngine(stateIn(state.phase ?? 'REVIEW', state));
  const r = render(<App engine={engine} files={props.files ?? fakeFiles()} tickMs={0} {...props} />);
  const press = async (...keys: string[]): Promise<void> => {
    for (const k of keys) {
      r.stdin.write(k);
      // A lone Esc is told apart from an escape sequence only once no more input follows at once (as in a terminal).
      await sleep(k === KEY.esc ? 50 : 5);
    }
  };
  await listening(r.stdin);
  return Object.assign(r, {
    engine,
    press,
    type: (text: string) => press(...Array.from(text)),
    frame: () => r.lastFrame() ?? '',
  });
}
