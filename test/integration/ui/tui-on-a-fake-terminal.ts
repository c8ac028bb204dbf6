// The whole TUI as `agent-collab` runs it (runInteractive: session, resume prompt, App, engine, exit code) on an
// in-memory terminal: keys are written to a fake stdin, frames read back from a fake stdout.
import { Console } from 'node:console';
import { EventEmitter } from 'node:events';
import { stripVTControlCharacters } from 'node:util';
import type { Agent, Mode, Role } from '../../../src/core/types.js';
import { runInteractive } from '../../../src/modes/interactive-start.js';
import { afterEach } from 'vitest';
import { tempRepo } from '../../helpers/repo.js';
import { KEY, sleep, waitFor } from '../../unit/ui/ui-helpers.js';

/** A terminal's output: every write kept; Ink writes each frame whole after erasing the previous one. */
class FakeStdout extends EventEmitter {
  readonly columns = 110;
  readonly rows = 40;
  readonly isTTY = true;
  readonly writes: string[] = [];
  write = (chunk: string): boolean => {
    this.writes.push(chunk);
    return true;
  };
  /** The text of the last frame drawn (escape sequences removed). */
  frame(): string {
    for (let i = this.writes.length - 1; i >= 0; i--) {
      const text = stripVTControlCharacters(this.writes[i] ?? '');
      if (text.trim()) return text;
    }
    return '';
  }
}

/** A terminal's keyboard, read the way Ink reads it ('readable' + read()). */
class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  isRaw = false;
  private data: string | null = null;
  write(data: string): void {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read(): string | null {
    const d = this.data;
    this.data = null;
    return d;
  }
  setRawMode(raw: boolean): this {
    this.isRaw = raw;
    return this;
  }
  setEncoding(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

export interface TuiRun {
  /** The exit code runInteractive returns (what the process exits with). */
  exit: Promise<number>;
  frame: () => string;
  /** Everything written to the terminal so far, escape sequences included. */
  writes: () => readonly string[];
  /** Waits until the screen matches (fails with the last screen after `limitMs`). */
  shows: (pattern: string | RegExp, limitMs?: number) => Promise<void>;
  /** Writes keys one at a time, each once the TUI reads the keyboard. */
  press: (...keys: string[]) => Promise<void>;
}

// Ink routes console output around its frames (patchConsole) with `new console.Console(…)`: vitest's console has
// no Console class of its own.
const withConsoleClass = console as Console & { Console?: typeof Console };
withConsoleClass.Console ??= Console;

export function runTui(opts: {
  cwd: string;
  homeDir: string;
  agents: Partial<Record<Role, Agent>>;
  goal?: string;
  mode?: Mode;
}): TuiRun {
  const stdout = new FakeStdout();
  const stdin = new FakeStdin();
  const exit = runInteractive({
    ...opts,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
  });
  const frame = (): string => stdout.frame();
  const shows = async (pattern: string | RegExp, limitMs = 60_000): Promise<void> => {
    const matches = (s: string): boolean => (typeof pattern === 'string' ? s.includes(pattern) : pattern.test(s));
    await waitFor(() => {
      if (!matches(frame())) throw new Error(`the screen does not show ${String(pattern)}:\n${frame()}`);
    }, limitMs);
  };
  const press = async (...keys: string[]): Promise<void> => {
    for (const k of keys) {
      await waitFor(() => {
        if (stdin.listenerCount('readable') === 0) throw new Error('the TUI is not reading the keyboard');
      }, 60_000);
      stdin.write(k);
      await sleep(20);
    }
  };
  return { exit, frame, shows, press, writes: () => stdout.writes };
}

/**
 * A TUI per test in a temp repo with `config`: `start` opens it; after each test, Ctrl+C ends it (if it still runs)
 * and the repo is removed.
 */
export function tuiInTempRepos(): {
  start: (config: string, opts: Omit<Parameters<typeof runTui>[0], 'cwd' | 'homeDir'>) => TuiRun & { dir: string };
} {
  let repo: ReturnType<typeof tempRepo> | null = null;
  let tui: TuiRun | null = null;
  afterEach(async () => {
    if (tui) {
      await tui.press(KEY.ctrlC);
      await tui.exit;
      tui = null;
    }
    repo?.cleanup();
    repo = null;
  });
  return {
    start: (config, opts) => {
      repo = tempRepo(config);
      tui = runTui({ cwd: repo.dir, homeDir: repo.home, ...opts });
      return { ...tui, dir: repo.dir };
    },
  };
}
