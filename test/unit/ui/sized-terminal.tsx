// Rendering the App on a terminal of a given size that can be resized (ink-testing-library's is fixed at 100
// columns with no rows).
import { EventEmitter } from 'node:events';
import { render } from 'ink';
import type { ReactElement } from 'react';
import { listening, sleep } from './ui-helpers.js';

export class SizedStdout extends EventEmitter {
  frames: string[] = [];
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string): boolean => {
    this.frames.push(frame);
    return true;
  };
  lastFrame = (): string => this.frames.at(-1) ?? '';
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

class Stdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write = (data: string): void => {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  };
  read = (): string | null => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

export interface SizedRender {
  stdout: SizedStdout;
  stdin: Stdin;
  frame: () => string;
  press: (...keys: string[]) => Promise<void>;
  unmount: () => void;
}

export async function renderSized(tree: ReactElement, columns: number, rows: number): Promise<SizedRender> {
  const stdout = new SizedStdout(columns, rows);
  const stdin = new Stdin();
  const stderr = new SizedStdout(columns, rows);
  const instance = render(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  await listening(stdin);
  return {
    stdout,
    stdin,
    frame: stdout.lastFrame,
    press: async (...keys) => {
      for (const k of keys) {
        stdin.write(k);
        await sleep(k === '\u001b' ? 50 : 5);
      }
    },
    unmount: () => {
      instance.unmount();
      instance.cleanup();
    },
  };
}
