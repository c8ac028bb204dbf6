// The built CLI's TUI in a real terminal: a tmux server of its own (a socket per test file), one pane running bash,
// keys sent to it and the screen read back (as text, or with its styles as SGR sequences). A Python pty hangs when
// Ink exits; tmux gives a real terminal we can read back.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CLI } from './cli.js';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

export class TmuxPane {
  private readonly socket: string;
  private readonly session = 'tui';
  private socketPath = '';
  private readonly screens: string[] = [];

  constructor(name: string) {
    this.socket = `ac-${name}-${process.pid}-${Date.now()}`;
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** A pane of `columns`×`rows` running bash in `cwd`; fails at once when dist/ is not built. */
  open(cwd: string, columns: number, rows: number): void {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
    const shell = 'bash --norc --noprofile';
    this.tmux('new-session', '-d', '-x', `${columns}`, '-y', `${rows}`, '-s', this.session, '-c', cwd, shell);
    this.socketPath = this.tmux('display-message', '-p', '#{socket_path}').trim();
  }

  close(): void {
    spawnSync('tmux', ['-L', this.socket, 'kill-server']);
    if (this.socketPath) rmSync(this.socketPath, { force: true }); // the server leaves its socket file behind
  }

  /**
   * The pane as text; `styled`: with its styles as SGR sequences; `joined`: lines the terminal wrapped joined again
   * (so a line drawn wider than the terminal comes back too wide). The last text screens are kept for `dump`.
   */
  screen(as: 'text' | 'styled' | 'joined' = 'text'): string {
    const flag = { text: [], styled: ['-e'], joined: ['-J'] }[as];
    const s = this.tmux('capture-pane', '-p', ...flag, '-t', this.session);
    if (as === 'text' && this.screens.at(-1) !== s) this.screens.push(s);
    if (this.screens.length > 40) this.screens.shift();
    return s;
  }

  /** The last screens seen, for a failure's message. */
  dump(): string {
    return this.screens
      .slice(-4)
      .map((s, i, all) => `\n──── screen ${this.screens.length - all.length + i + 1} ────\n${s}`)
      .join('');
  }

  /** A tmux format of the pane, e.g. `#{alternate_on}`, `#{pane_pid}`. */
  display(format: string): string {
    return this.tmux('display-message', '-p', '-t', this.session, format).trim();
  }

  /** Polls the pane until `match` holds; fails with the last screens seen. */
  async until(what: string, match: (s: string) => boolean, timeoutMs = 15_000): Promise<string> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const s = this.screen();
      if (match(s)) return s;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last screens:${this.dump()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  shows(text: string, timeoutMs?: number): Promise<string> {
    return this.until(JSON.stringify(text), (s) => s.includes(text), timeoutMs);
  }

  keys(...k: string[]): void {
    this.tmux('send-keys', '-t', this.session, ...k);
  }

  type(text: string): void {
    this.tmux('send-keys', '-t', this.session, '-l', text);
  }

  /** Waits for bash's prompt. */
  prompt(): Promise<string> {
    return this.until('the shell prompt', (s) => /[#$]\s*$/m.test(s));
  }
}

/** The shell command that runs the built CLI with the temp repo's own HOME (and `env`, e.g. `NO_COLOR=1`). */
export function cliCommand(home: string, env = ''): string {
  const vars = `${env} HOME=${JSON.stringify(home)} XDG_CONFIG_HOME=${JSON.stringify(path.join(home, '.config'))} XDG_STATE_HOME=`;
  return `env ${vars.trim()} node ${JSON.stringify(CLI)}`;
}
