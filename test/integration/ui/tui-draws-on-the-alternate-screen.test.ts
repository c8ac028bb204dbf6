// Issue 20 (habits): the TUI draws on the terminal's alternate screen, so the shell's scrollback stays as it was; on
// exit the terminal is given back to the normal screen and one line there says where the run stands and how to go on.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { tempRepo } from '../../helpers/repo.js';
import { KEY } from '../../unit/ui/ui-helpers.js';
import { runTui } from './tui-on-a-fake-terminal.js';

const ENTER_ALT = '\u001b[?1049h';
const LEAVE_ALT = '\u001b[?1049l';
const MOUSE_ON = '\u001b[?1000h\u001b[?1006h';
const MOUSE_OFF = '\u001b[?1006l\u001b[?1000l';
const WHEEL_KEYS_ON = '\u001b[?1007h';
const WHEEL_KEYS_OFF = '\u001b[?1007l';
const PASTE_ON = '\u001b[?2004h';
const PASTE_OFF = '\u001b[?2004l';

let repo: ReturnType<typeof tempRepo> | null = null;
afterEach(() => {
  repo?.cleanup();
  repo = null;
});

describe('the TUI and the terminal', { timeout: 120_000 }, () => {
  it('enters the alternate screen before its first frame and leaves it on exit, then writes where the run stands', async () => {
    repo = tempRepo('[safety]\nsandbox = "off"\n');
    // A planner that takes its time, so Ctrl+C comes while the plan is being written.
    const planner = new FakeAgent('planner', { rules: [{ do: { delayMs: 30_000, text: 'never seen' } }] });
    const reviewer = new FakeAgent('reviewer', { rules: [{ do: { verdict: 'APPROVED' } }] });
    const tui = runTui({ cwd: repo.dir, homeDir: repo.home, agents: { planner, reviewer }, goal: 'greet the world' });
    await tui.shows('planner');
    await tui.press(KEY.ctrlC);
    expect(await tui.exit).toBe(130);

    const writes = tui.writes();
    expect(writes[0]).toBe(ENTER_ALT);
    // Bracketed paste on with it (a pasted text's line breaks are text, not Enter), and off again before leaving.
    expect(writes[1]).toBe(PASTE_ON);
    const left = writes.lastIndexOf(LEAVE_ALT);
    expect(left).toBeGreaterThan(0);
    expect(writes[left - 1]).toBe(PASTE_OFF);
    // Nothing of the TUI is drawn after it left; what follows is the line for the normal screen, and where the
    // stopped run's report is.
    expect(writes.slice(left + 1)).toEqual([
      'agent-collab: run saved at WRITE_PLAN; run `agent-collab` here to continue it\n',
      expect.stringMatching(/^agent-collab: run report \(FAILED\): .*\/runs\/.*\/report\.md\n$/),
    ]);
  });

  it('left before any goal, it says no run started, and the next start asks nothing about it', async () => {
    repo = tempRepo('[safety]\nsandbox = "off"\n');
    const agents = {
      planner: new FakeAgent('planner', { rules: [] }),
      reviewer: new FakeAgent('reviewer', { rules: [{ do: { verdict: 'APPROVED' } }] }),
    };
    const first = runTui({ cwd: repo.dir, homeDir: repo.home, agents });
    await first.shows('waiting for your goal');
    await first.press(KEY.ctrlC);
    await first.exit;
    expect(first.writes().at(-1)).toBe('agent-collab: no run started; run `agent-collab` to state a goal\n');

    const again = runTui({ cwd: repo.dir, homeDir: repo.home, agents });
    await again.shows('waiting for your goal');
    expect(again.writes().join('')).not.toContain('Unfinished session');
    await again.press(KEY.ctrlC);
    await again.exit;
  });

  it.each([
    { setting: '', on: MOUSE_ON, off: MOUSE_OFF },
    { setting: '[tui]\nmouse = "scroll_keys"\n', on: WHEEL_KEYS_ON, off: WHEEL_KEYS_OFF },
  ])(
    'asks for the mouse mode of [tui] mouse ($setting) and takes it back before leaving',
    async ({ setting, on, off }) => {
      repo = tempRepo(`[safety]\nsandbox = "off"\n${setting}`);
      const agents = {
        planner: new FakeAgent('planner', { rules: [] }),
        reviewer: new FakeAgent('reviewer', { rules: [{ do: { verdict: 'APPROVED' } }] }),
      };
      const tui = runTui({ cwd: repo.dir, homeDir: repo.home, agents });
      await tui.shows('waiting for your goal');
      await tui.press(KEY.ctrlC);
      await tui.exit;
      const writes = tui.writes();
      const asked = writes.indexOf(on);
      const left = writes.lastIndexOf(LEAVE_ALT);
      expect(asked).toBeGreaterThan(0);
      // taken back right before the normal screen comes back (bracketed paste goes off between them)
      expect(writes.lastIndexOf(off)).toBe(left - 2);
      expect(writes[left - 1]).toBe(PASTE_OFF);
      expect(writes.filter((w) => w === on)).toHaveLength(1);
    },
  );

  it('with [tui] mouse = "off" asks the terminal nothing about the mouse', async () => {
    repo = tempRepo('[safety]\nsandbox = "off"\n[tui]\nmouse = "off"\n');
    const agents = {
      planner: new FakeAgent('planner', { rules: [] }),
      reviewer: new FakeAgent('reviewer', { rules: [{ do: { verdict: 'APPROVED' } }] }),
    };
    const tui = runTui({ cwd: repo.dir, homeDir: repo.home, agents });
    await tui.shows('waiting for your goal');
    await tui.press(KEY.ctrlC);
    await tui.exit;
    // eslint-disable-next-line no-control-regex
    expect(tui.writes().join('')).not.toMatch(/\u001b\[\?100[067][hl]/);
  });
});
