// Issue 20: the Diff tab made seven tabs. At 80 columns their whole titles still fit on the first row, and a scroll
// hint that would not fit beside them is cut, never a title (and never a second row).
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/ui/App.js';
import { textWidth } from '../../../src/ui/lines.js';
import { stateIn } from '../../helpers/states.js';
import { renderSized, type SizedRender } from './sized-terminal.js';
import { FakeEngine, fakeFiles, KEY, waitFor } from './ui-helpers.js';

const opened: SizedRender[] = [];
afterEach(() => {
  for (const r of opened.splice(0)) r.unmount();
});

// eslint-disable-next-line no-control-regex
const plain = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');
const TITLES = ['1:Conversation', '2:Plan', '3:Comments', '4:Log', '5:Status', '6:Code', '7:Diff'];

describe('the tab bar at 80 columns', () => {
  it('shows all seven whole titles on one row, with a long scroll hint beside them cut to fit', async () => {
    const engine = new FakeEngine(stateIn('REVIEW'));
    const r = await renderSized(<App engine={engine} files={fakeFiles()} tickMs={0} />, 80, 24);
    opened.push(r);
    for (let i = 1; i <= 3000; i++)
      engine.emit({ type: 'agent_event', role: 'planner', event: { type: 'text', text: `line ${i}` } });
    await waitFor(() => expect(plain(r.frame())).toContain('line 3000'));
    // Half way up: lines above and below the window, a hint like "↑1400 ↓1500".
    for (let i = 0; i < 3; i++) await r.press(KEY.pageUp);
    await r.press('\u0015'); // Ctrl+U
    await waitFor(() => expect(plain(r.frame()).split('\n')[0]).toMatch(/↑\d+/));
    const rows = plain(r.frame()).split('\n');
    for (const title of TITLES) expect(rows[0]).toContain(title);
    expect(textWidth(rows[0] ?? '')).toBeLessThanOrEqual(80);
    expect(rows[1]).not.toMatch(/^\s*$/);
  });
});
