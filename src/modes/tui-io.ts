// What the TUI's two halves share: its options, its terminal and how Ink draws on it (interactive-start.ts draws the
// first frame, interactive.ts the rest). Types only besides renderOptions: this module loads before the first frame.
import type { Agent, Mode, Role } from '../core/types.js';
import type { Config } from '../persistence/config-schema.js';
import type { DeepPartial } from '../persistence/config.js';
import type { AlternateScreen } from './alternate-screen.js';

export interface InteractiveOptions {
  cwd: string;
  /** Start a new run with this goal already confirmed (the demo); otherwise the person states it in the TUI. */
  goal?: string;
  mode?: Mode;
  agents?: Partial<Record<Role, Agent>>;
  overrides?: DeepPartial<Config>;
  homeDir?: string;
  /** `--allow-detached`: steps may be committed onto a detached HEAD. */
  allowDetached?: boolean;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}

export interface Io {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  screen: AlternateScreen;
}

/** Frames per second Ink may draw at most. The App paces a stream's frames itself, so Ink's limit only delays the
 * frame of a key pressed right after a stream's frame: a high limit keeps keys answered at once. */
export const TUI_MAX_FPS = 120;

export const renderOptions = (io: Io) => ({
  stdin: io.stdin,
  stdout: io.stdout,
  exitOnCtrlC: false,
  patchConsole: true,
  maxFps: TUI_MAX_FPS,
});
