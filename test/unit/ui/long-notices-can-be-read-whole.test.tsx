// Issue 20, defect 9: long notices (a missing CLI's install hint, a usage limit's reset time, a denial) were cut at
// the edge of the flash line and could not be read. The flash line now wraps onto a few rows and, past them, says
// where the notice is whole: the conversation, which wraps every line.
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/ui/App.js';
import { stateIn } from '../../helpers/states.js';
import { renderSized, type SizedRender } from './sized-terminal.js';
import { FakeEngine, fakeFiles, waitFor } from './ui-helpers.js';

const opened: SizedRender[] = [];
afterEach(() => {
  for (const r of opened.splice(0)) r.unmount();
});

// eslint-disable-next-line no-control-regex
const plain = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');
const words = (s: string): string => s.replace(/\s+/g, ' ');

const HINT =
  'The reviewer CLI `codex` is not installed: install it with `npm install -g @openai/codex@0.40.0`, then run `codex login`, or set [roles] reviewer = "claude" in .agent-collab/config.toml; agent-collab doctor checks it.';
const HUGE = `${HINT} ${'More detail follows here, word after word. '.repeat(8)}The very end.`;

async function startWith(notice: string): Promise<SizedRender> {
  const engine = new FakeEngine(stateIn('REFINE_GOAL', { goal: '', awaiting: { kind: 'goal' } }));
  const r = await renderSized(<App engine={engine} files={fakeFiles()} tickMs={0} notice={notice} />, 80, 24);
  opened.push(r);
  return r;
}

describe('a long notice at 80 columns', () => {
  it('wraps on the flash rows, whole, and the status bar keeps its two last rows', async () => {
    const r = await startWith(HINT);
    await waitFor(() => expect(plain(r.frame())).toContain('codex login'));
    const rows = plain(r.frame()).split('\n');
    expect(words(rows.join(' '))).toContain(words(HINT));
    expect(rows.at(-2)).toMatch(/^REFINE_GOAL\s+iter 0\/5\s+MANUAL/);
    expect(rows.at(-1)).toContain('Ctrl+C quit');
  });

  it('longer than the flash rows, it says where it is whole, and the conversation has all of it', async () => {
    const r = await startWith(HUGE);
    await waitFor(() => expect(plain(r.frame())).toContain('whole in 1:Conversation'));
    // The conversation (the first tab, shown) holds every word, wrapped, up to its end.
    await waitFor(() => expect(plain(r.frame())).toContain('The very end.'));
    const rows = plain(r.frame()).split('\n');
    expect(rows.every((l) => l.length <= 80)).toBe(true);
    expect(rows.at(-2)).toMatch(/^REFINE_GOAL\s+iter 0\/5\s+MANUAL/);
  });
});
