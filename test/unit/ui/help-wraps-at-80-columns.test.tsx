// Issue 20, defect 5: at 80 columns the help was cut ("…twice with…", "$EDIT…"). Its descriptions now wrap under
// their column, and a help taller than the terminal scrolls instead of pushing the status bar off its two rows.
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/ui/App.js';
import { helpRows } from '../../../src/ui/keymap.js';
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
const words = (s: string): string => s.replace(/[│║╔╗╚╝═]/g, ' ').replace(/\s+/g, ' ');

async function helpOpenAt(columns: number, rows: number): Promise<SizedRender> {
  const engine = new FakeEngine(
    stateIn('REVIEW', { iteration: 1, awaiting: { kind: 'go', action: { kind: 'review' } } }),
  );
  const r = await renderSized(<App engine={engine} files={fakeFiles()} tickMs={0} />, columns, rows);
  opened.push(r);
  await r.press('?');
  await waitFor(() => expect(plain(r.frame())).toContain('Esc / ? / q: close'));
  return r;
}

describe('the help at 80×24', () => {
  it('fits: tab bar on the first row, the status bar’s two lines on the last two, nothing wider than 80', async () => {
    const r = await helpOpenAt(80, 24);
    const lines = plain(r.frame()).split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    for (const l of lines) expect(textWidth(l), `too wide: "${l}"`).toBeLessThanOrEqual(80);
    expect(lines[0]).toContain('1:Conversation');
    expect(lines.at(-2)).toMatch(/REVIEW\s+iter 1\/5\s+MANUAL/);
    expect(lines.at(-1)).toContain('Ctrl+C quit');
  });

  it('every description can be read whole, scrolling with ↓', async () => {
    const r = await helpOpenAt(80, 24);
    const seen: string[] = [words(plain(r.frame()))];
    for (let i = 0; i < 40; i++) {
      await r.press(KEY.down);
      seen.push(words(plain(r.frame())));
    }
    for (const row of helpRows())
      expect(
        seen.some((s) => s.includes(words(row.description))),
        row.description,
      ).toBe(true);
    expect(seen.join('\n')).not.toContain('…');
  });
});
