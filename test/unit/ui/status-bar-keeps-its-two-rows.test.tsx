// Issue 20, defect 1: the status bar's two lines collapsed onto one row ("Ctrl+C quit  iter 0/1  MANUAL …") for a
// frame or two at the end of rounds, when what sits above it grew before the conversation window was measured
// again. Every frame drawn must keep the tab bar on the first row and the status bar on the last two.
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineOutput } from '../../../src/core/events.js';
import type { Awaiting, WorkflowState } from '../../../src/core/types.js';
import { App } from '../../../src/ui/App.js';
import { stateIn } from '../../helpers/states.js';
import { renderSized, type SizedRender } from './sized-terminal.js';
import { FakeEngine, fakeFiles, KEY, sleep, waitFor } from './ui-helpers.js';

const opened: SizedRender[] = [];
afterEach(() => {
  for (const r of opened.splice(0)) r.unmount();
});

// eslint-disable-next-line no-control-regex
const plain = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');

/** Each frame's rows that break the layout: the tab bar not first, the status bar not on the last two rows. */
function brokenFrames(frames: readonly string[], rows: number, phase: string): string[] {
  return frames
    .map((f) => plain(f).split('\n'))
    .filter((lines) => lines.length > 1)
    .filter(
      (lines) =>
        lines.length > rows ||
        !lines[0]?.includes('1:Conversation') ||
        !new RegExp(`^${phase}\\s+iter \\d+/\\d+\\s+(MANUAL|AUTO)`).test(lines.at(-2) ?? '') ||
        /iter \d+\/\d+/.test(lines.at(-1) ?? ''),
    )
    .map((lines) => lines.join('\n'));
}

/** A conversation longer than the screen, so the window is full when the bottom grows. */
function chatter(engine: FakeEngine): void {
  const text = Array.from({ length: 60 }, (_, i) => `line ${i + 1} of the planner's answer`).join('\n');
  const out: EngineOutput = { type: 'agent_event', role: 'planner', event: { type: 'text', text } };
  engine.emit(out);
}

async function app(state: WorkflowState, columns = 80, rows = 24) {
  const engine = new FakeEngine(state);
  const r = await renderSized(<App engine={engine} files={fakeFiles()} tickMs={0} />, columns, rows);
  opened.push(r);
  return { engine, r };
}

describe('the status bar keeps its two rows', () => {
  it.each([
    {
      name: 'a round ends and the goal box comes back',
      phase: 'REFINE_GOAL' as const,
      after: { kind: 'goal' } as Awaiting,
    },
    {
      name: 'a round ends and a failure box opens',
      phase: 'RESPOND' as const,
      after: {
        kind: 'failure',
        role: 'planner',
        failure: 'agent_error',
        message: 'boom',
        action: { kind: 'respond' },
      } as Awaiting,
    },
  ])('in every frame drawn when $name (80×24)', async ({ phase, after }) => {
    const { engine, r } = await app(stateIn(phase, { inflight: { kind: 'respond' }, awaiting: null }));
    chatter(engine);
    await sleep(50);
    const from = r.stdout.frames.length;
    engine.set({ inflight: null, awaiting: after });
    await sleep(200);
    const frames = r.stdout.frames.slice(from);
    expect(frames.length).toBeGreaterThan(0);
    expect(brokenFrames(frames, 24, phase)).toEqual([]);
  });

  it('with the help open at 80×24, whatever the run does under it', async () => {
    const { engine, r } = await app(stateIn('REVIEW', { iteration: 1, inflight: { kind: 'review' }, awaiting: null }));
    chatter(engine);
    await r.press('?');
    await waitFor(() => expect(plain(r.frame())).toContain('Esc / ? / q: close'));
    const from = r.stdout.frames.length;
    engine.set({ inflight: null, awaiting: { kind: 'go', action: { kind: 'respond' } } });
    await sleep(100);
    await r.press(KEY.down, KEY.down);
    expect(brokenFrames(r.stdout.frames.slice(from), 24, 'REVIEW')).toEqual([]);
  });
});
