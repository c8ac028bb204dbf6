// Issue 20, defects 1 and 4, in a real terminal (tmux, 80×24) on the built CLI: with the help open the tab bar stays
// on the first row and the status bar's two lines on the last two; with NO_COLOR the screen has no colour but keeps
// its styles (bold, dim, inverse: the goal box's cursor stays visible).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { tempRepoWithFakeScript } from '../helpers/repo.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const SOCKET = `ac-layout-${process.pid}-${Date.now()}`;
const SESSION = 'layout';

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

/** The pane as text, or with its styles as SGR sequences (`-e`). */
const screen = (styled = false): string => tmux('capture-pane', '-p', ...(styled ? ['-e'] : []), '-t', SESSION);
const keys = (...k: string[]): void => void tmux('send-keys', '-t', SESSION, ...k);
const type = (text: string): void => void tmux('send-keys', '-t', SESSION, '-l', text);

async function until(what: string, match: (s: string) => boolean, timeoutMs = 15_000): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const s = screen();
    if (match(s)) return s;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last screen:\n${s}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[([0-9;]*)m/g;
/** The SGR parameters on screen that set a colour (39/49, back to the default colour, are not one). */
function colourParams(styled: string): string[] {
  return [...styled.matchAll(SGR)]
    .flatMap((m) => (m[1] ?? '').split(';'))
    .filter((p) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(p));
}
const styleParams = (styled: string): Set<string> =>
  new Set([...styled.matchAll(SGR)].flatMap((m) => (m[1] ?? '').split(';')));

/** The rows the TUI drew: the tab bar first, the status bar's two lines last. */
function expectLayout(s: string): void {
  const rows = s.replace(/\n$/, '').split('\n');
  const last = rows.map((r) => r.trim() !== '').lastIndexOf(true);
  expect(rows.length, s).toBeLessThanOrEqual(24);
  expect(rows[0], s).toContain('1:Conversation');
  expect(rows[last - 1], s).toMatch(/^REFINE_GOAL\s+iter 0\/\d+\s+MANUAL/);
  expect(rows[last], s).toContain('Ctrl+C quit');
  expect(rows[last], s).not.toMatch(/iter \d+\/\d+/);
}

describe.skipIf(!hasTmux)('the built TUI at 80×24 in tmux', () => {
  let repo: ReturnType<typeof tempRepoWithFakeScript>;
  let socketPath = '';

  beforeEach(() => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
    repo = tempRepoWithFakeScript({ rules: [] });
    tmux('new-session', '-d', '-x', '80', '-y', '24', '-s', SESSION, '-c', repo.dir, 'bash --norc --noprofile');
    socketPath = tmux('display-message', '-p', '#{socket_path}').trim();
  });

  afterEach(() => {
    spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
    if (socketPath) rmSync(socketPath, { force: true }); // the server leaves its socket file behind
    repo?.cleanup();
  });

  async function start(extraEnv: string): Promise<void> {
    await until('the shell prompt', (s) => /[#$]\s*$/m.test(s));
    const env = `${extraEnv} HOME=${JSON.stringify(repo.home)} XDG_CONFIG_HOME=${JSON.stringify(path.join(repo.home, '.config'))} EDITOR=true`;
    type(`clear; env ${env} node ${JSON.stringify(CLI)}`);
    keys('Enter');
    await until('the goal box', (s) => s.includes('waiting for your goal') && s.includes('goal ›'));
  }

  it.each([
    { name: 'in colour', env: 'TERM=xterm-256color' },
    { name: 'with NO_COLOR', env: 'NO_COLOR=1' },
  ])(
    '$name, the help open keeps the tab bar on the first row and the status bar on the last two',
    async (c) => {
      await start(c.env);
      expectLayout(screen());
      keys('Escape');
      await until('the keys, out of the goal box', (s) => s.includes('? help'));
      type('?');
      const s = await until('the help', (x) => x.includes('Esc / ? / q: close'));
      expectLayout(s);
      keys('Down', 'Down', 'Down');
      await new Promise((r) => setTimeout(r, 300));
      expectLayout(screen());
    },
    60_000,
  );

  it('with NO_COLOR there is no colour, but bold, dim and the inverse cursor of the goal box stay', async () => {
    await start('NO_COLOR=1');
    const styled = screen(true);
    expect(colourParams(styled)).toEqual([]);
    const styles = styleParams(styled);
    expect(styles.has('1'), 'bold').toBe(true);
    expect(styles.has('2'), 'dim').toBe(true);
    expect(styles.has('7'), 'inverse').toBe(true);
    // The goal box's cursor is an inverse cell right after the prompt.
    // eslint-disable-next-line no-control-regex
    expect(styled).toMatch(/goal › (\u001b\[[0-9;]*m)*\u001b\[[0-9;]*7[0-9;]*m /);
  }, 60_000);
});
