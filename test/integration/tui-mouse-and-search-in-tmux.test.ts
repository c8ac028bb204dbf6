// Issue 20, "Scrolling", in a real terminal (tmux, 80×24) on the built CLI: the TUI asks for mouse reports (xterm
// 1000 + SGR 1006) and gives them back on exit; a wheel report scrolls the conversation, and reports never reach the
// goal box; `/` finds a line and the status bar keeps its two last rows with the search line above it.
// tmux's `send-keys -H` writes the report's bytes as a terminal would send them to the program.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { tempRepoWithFakeScript } from '../helpers/repo.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const SOCKET = `ac-mouse-${process.pid}-${Date.now()}`;
const SESSION = 'mouse';

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}
const screen = (): string => tmux('capture-pane', '-p', '-t', SESSION);
const keys = (...k: string[]): void => void tmux('send-keys', '-t', SESSION, ...k);
const type = (text: string): void => void tmux('send-keys', '-t', SESSION, '-l', text);
/** Raw bytes to the program, as the terminal sends a mouse report. */
const bytes = (text: string): void =>
  void tmux('send-keys', '-t', SESSION, '-H', ...[...Buffer.from(text)].map((b) => b.toString(16).padStart(2, '0')));
/** The pane's terminal modes: alternate screen, mouse reporting, SGR reports (1 or 0). */
const modes = (): string =>
  tmux('display-message', '-p', '-t', SESSION, '#{alternate_on} #{mouse_any_flag} #{mouse_sgr_flag}').trim();

const WHEEL_UP = '\u001b[<64;10;5M';
const CLICK = '\u001b[<0;10;5M\u001b[<0;10;5m';

async function until(what: string, match: (s: string) => boolean, timeoutMs = 20_000): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const s = screen();
    if (match(s)) return s;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last screen:\n${s}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const tabBar = (s: string): string => s.split('\n')[0] ?? '';
const below = (s: string): number => Number(/↓(\d+)/.exec(tabBar(s))?.[1] ?? 0);

describe.skipIf(!hasTmux)('mouse and search in the built TUI, in tmux at 80×24', () => {
  let repo: ReturnType<typeof tempRepoWithFakeScript>;
  let socketPath = '';

  beforeEach(() => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
    const answer = Array.from({ length: 80 }, (_, i) => `answer line ${i + 1}`).join('\n');
    repo = tempRepoWithFakeScript({ rules: [{ when: { kind: 'refine' }, do: { text: answer } }] });
    tmux('new-session', '-d', '-x', '80', '-y', '24', '-s', SESSION, '-c', repo.dir, 'bash --norc --noprofile');
    socketPath = tmux('display-message', '-p', '#{socket_path}').trim();
  });

  afterEach(() => {
    spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
    if (socketPath) rmSync(socketPath, { force: true });
    repo?.cleanup();
  });

  async function start(): Promise<void> {
    await until('the shell prompt', (s) => /[#$]\s*$/m.test(s));
    expect(modes()).toBe('0 0 0');
    const env = `HOME=${JSON.stringify(repo.home)} XDG_CONFIG_HOME=${JSON.stringify(path.join(repo.home, '.config'))} EDITOR=true`;
    type(`clear; env ${env} node ${JSON.stringify(CLI)}`);
    keys('Enter');
    await until('the goal box', (s) => s.includes('waiting for your goal') && s.includes('goal ›'));
    await until('mouse reporting on', () => modes() === '1 1 1');
  }

  it('the wheel scrolls, reports never type, / finds a line, and the terminal gets its modes back on exit', async () => {
    await start();

    type('find the needle');
    keys('Enter');
    let s = await until("the planner's answer", (x) => x.includes('answer line 80'));
    expect(below(s)).toBe(0);

    bytes(WHEEL_UP);
    s = await until('the wheel scrolled', (x) => below(x) === 3);
    expect(s).not.toContain('answer line 80');

    type('ab');
    bytes(WHEEL_UP + CLICK);
    type('c');
    s = await until('the goal box text', (x) => x.includes('goal › abc'));
    expect(s).not.toMatch(/\[<|goal › ab[^c]/);
    await until('the second notch', (x) => below(x) === 6);

    keys('C-u', 'Escape'); // empty the box, leave it: / is a key then
    await until('the keys, out of the goal box', (x) => x.includes('? help'));
    type('/');
    await until('the search prompt', (x) => x.includes('Enter: search'));
    type('LINE 12');
    keys('Enter');
    s = await until('no match, smart case', (x) => x.includes('no match for “LINE 12”'));
    type('/');
    await until('the search prompt again', (x) => x.includes('Enter: search'));
    type('line 12');
    keys('Enter');
    s = await until('the match', (x) => x.includes('answer line 12') && !x.includes('answer line 60'));
    const rows = s.replace(/\n$/, '').split('\n');
    const last = rows.map((r) => r.trim() !== '').lastIndexOf(true);
    expect(rows[0], s).toContain('1:Conversation');
    expect(rows[last - 2], s).toMatch(/^\/line 12 /);
    expect(rows[last - 1], s).toMatch(/^REFINE_GOAL\s+iter 0\/\d+\s+MANUAL/);
    expect(rows[last], s).toContain('Ctrl+C quit');

    keys('C-c');
    await until('the shell again', (x) => x.includes('agent-collab:') && /[#$]\s*$/m.test(x));
    expect(modes()).toBe('0 0 0');
  }, 90_000);

  it('SIGTERM: the terminal gets its modes back too', async () => {
    await start();
    // The TUI is the pane shell's only child (env execs node).
    const shell = tmux('display-message', '-p', '-t', SESSION, '#{pane_pid}').trim();
    const pid = Number(execFileSync('pgrep', ['-P', shell], { encoding: 'utf8' }).trim());
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGTERM');
    await until('the shell again', (x) => x.includes('agent-collab:') && /[#$]\s*$/m.test(x));
    expect(modes()).toBe('0 0 0');
  }, 60_000);
});
