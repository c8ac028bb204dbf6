// Escape sequences in what agents say, the commands they run, the goal and plan.md reach the screen as visible
// characters (␛, ␇, �), never as sequences the terminal would obey; agent-collab's own colours still work.
// chalk is Ink's own colour library: the test switches its level on, as a colour terminal would.
import chalk from 'chalk';
import { cleanup } from 'ink-testing-library';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeFiles, renderApp, waitFor } from './ui-helpers.js';

const ESC = '\u001b';
const BEL = '\u0007';
const CSI8 = '\u009b'; // the 8-bit CSI
/** Clear the screen, home the cursor, set the clipboard (OSC 52), set the title, and an 8-bit CSI. */
const HOSTILE = `${ESC}[2J${ESC}[H${ESC}]52;c;cm0gLXJmIH4=${BEL}${ESC}]0;owned${BEL}${CSI8}31m`;

let level = chalk.level;
beforeEach(() => {
  level = chalk.level;
  chalk.level = 1;
});
afterEach(() => {
  cleanup();
  chalk.level = level;
});

/** Every ESC in the frame starts one of Ink's SGR styles (colour, bold, dim …), nothing else. */
function onlyStyling(frame: string): void {
  // eslint-disable-next-line no-control-regex
  const sequences = frame.match(/\u001b[^m]{0,12}m?/g) ?? [];
  // eslint-disable-next-line no-control-regex
  for (const s of sequences) expect(s).toMatch(/^\u001b\[[0-9;]*m$/);
  expect(frame).not.toContain(BEL);
  expect(frame).not.toContain(CSI8);
}

describe('control sequences from outside are shown, not obeyed', () => {
  it('agent text and commands in the conversation: visible as ␛ / ␇, styling intact', async () => {
    const r = await renderApp({ phase: 'EXECUTE' });
    r.engine.emit({ type: 'agent_event', role: 'planner', event: { type: 'text', text: `Hello ${HOSTILE} there` } });
    r.engine.emit({
      type: 'agent_event',
      role: 'planner',
      event: { type: 'command', id: 'c1', command: `echo ${ESC}]0;title${BEL}`, status: 'started' },
    });
    await waitFor(() => expect(r.frame()).toContain('there'));
    const frame = r.frame();
    onlyStyling(frame);
    expect(frame).toContain('␛[2J␛[H␛]52;c;cm0gLXJmIH4=␇');
    expect(frame).toContain('echo ␛]0;title␇');
    expect(frame).toContain(`${ESC}[36m`); // the planner's own cyan
  });

  it('plan.md and the goal: visible as ␛ / ␇ in the Plan and Status tabs', async () => {
    const r = await renderApp(
      { phase: 'REVIEW', goal: `make it ${HOSTILE} work` },
      { files: fakeFiles({ plan: `# Plan\n\n${HOSTILE}\n\n## Steps\n1. [ ] One\n` }) },
    );
    await r.press('2');
    await waitFor(() => expect(r.frame()).toContain('1. [ ] One'));
    onlyStyling(r.frame());
    expect(r.frame()).toContain('␛[2J');
    await r.press('5');
    await waitFor(() => expect(r.frame()).toContain('make it'));
    onlyStyling(r.frame());
    expect(r.frame()).toContain('make it ␛[2J');
  });
});
