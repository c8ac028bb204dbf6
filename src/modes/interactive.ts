// Interactive mode: the Ink TUI over the same session and engine as headless mode.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { watch } from 'chokidar';
import { render } from 'ink';
import { createElement } from 'react';
import type { Engine } from '../engine/runner.js';
import type { Agent, Mode, Role, WorkflowState } from '../engine/types.js';
import type { Config } from '../persistence/config-schema.js';
import type { DeepPartial } from '../persistence/config.js';
import { EXIT } from '../persistence/errors.js';
import { App } from '../ui/App.js';
import { ResumeDialog } from '../ui/dialogs/ConfirmDialog.js';
import type { EditableFile, FilesReader } from '../ui/ports.js';
import { openSession, type Session } from './session.js';

export interface InteractiveOptions {
  cwd: string;
  /** Start a new run with this goal already confirmed (the demo); otherwise the person states it in the TUI. */
  goal?: string;
  mode?: Mode;
  agents?: Partial<Record<Role, Agent>>;
  overrides?: DeepPartial<Config>;
  homeDir?: string;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}

interface Io {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

const renderOptions = (io: Io) => ({ stdin: io.stdin, stdout: io.stdout, exitOnCtrlC: false, patchConsole: true });

/** The `[Y/n]` question for an unfinished run; null when the person pressed Ctrl+C. */
async function askResume(s: WorkflowState, io: Io): Promise<boolean | null> {
  return new Promise<boolean | null>((resolve) => {
    let answered = false;
    const answer = (value: boolean | null): void => {
      if (answered) return;
      answered = true;
      instance.clear();
      instance.unmount();
      resolve(value);
    };
    const instance = render(
      createElement(ResumeDialog, { phase: s.phase, iteration: s.iteration, goal: s.goal, onAnswer: (v: boolean) => answer(v), onInterrupt: () => answer(null) }),
      renderOptions(io),
    );
    void instance.waitUntilExit().finally(() => answer(null));
  });
}

export function filesReader(session: Session): FilesReader {
  const { paths } = session;
  const watched = new Set([paths.plan, paths.comments, paths.log].map((p) => path.resolve(p)));
  return {
    readPlan: () => session.files.readPlan(),
    readComments: () => session.files.readComments(),
    readLog: () => readFile(paths.log, 'utf8').catch(() => null),
    watch: (onChange) => {
      const watcher = watch(paths.workdir, { ignoreInitial: true, depth: 0 });
      watcher.on('all', (_event, file) => {
        if (watched.has(path.resolve(file))) onChange();
      });
      watcher.on('error', () => undefined);
      return () => void watcher.close();
    },
  };
}

/** Opens the file in $VISUAL / $EDITOR (vi by default) on the terminal, while the TUI waits. */
function openEditor(file: string, io: Io): void {
  const editor = process.env.VISUAL || process.env.EDITOR || 'vi';
  const quoted = `'${file.replace(/'/g, `'\\''`)}'`;
  const raw = io.stdin.isTTY ? io.stdin.isRaw : false;
  if (io.stdin.isTTY) io.stdin.setRawMode(false);
  try {
    const r = spawnSync(`${editor} ${quoted}`, { shell: true, stdio: 'inherit' });
    if (r.error) throw r.error;
    if (r.status !== 0) throw new Error(`${editor} exited with code ${r.status ?? r.signal ?? '?'}`);
  } finally {
    if (io.stdin.isTTY) io.stdin.setRawMode(raw);
  }
}

/** A bell, plus an OSC 9 notification on terminals known to show it. */
function attention(io: Io): void {
  const osc9 = process.env.TERM_PROGRAM === 'iTerm.app' || process.env.TERM_PROGRAM === 'WezTerm' || Boolean(process.env.WT_SESSION);
  io.stdout.write(osc9 ? '\u001b]9;agent-collab: your input is needed\u0007' : '\u0007');
}

export async function runInteractive(opts: InteractiveOptions): Promise<number> {
  const io: Io = { stdin: opts.stdin ?? process.stdin, stdout: opts.stdout ?? process.stdout };
  const session = await openSession({ cwd: opts.cwd, homeDir: opts.homeDir, agents: opts.agents, overrides: opts.overrides });
  try {
    const notices: string[] = [];
    if (session.corrupt) notices.push(`state.json could not be read (${session.corrupt.reason}); it was moved to ${session.corrupt.movedTo}`);
    let state: WorkflowState | null = null;
    const saved = session.saved;
    if (saved.kind === 'unfinished') {
      const resume = await askResume(saved.state, io);
      if (resume === null) return EXIT.interrupted;
      if (resume) state = saved.state;
      else notices.push(`Archived the unfinished run to ${await session.archiveSaved(saved.state)}`);
    } else if (saved.kind === 'finished') {
      notices.push(`Archived the previous run to ${await session.archiveSaved(saved.state)}`);
    }
    const resumed = state !== null;
    const engine = session.engineFor(state ?? session.newRun(opts.goal ?? '', opts.mode ?? 'manual'));
    return await runApp(session, engine, { resumed, goal: opts.goal, notice: notices.join(' · ') || undefined }, io);
  } finally {
    await session.close();
  }
}

function runApp(session: Session, engine: Engine, o: { resumed: boolean; goal?: string; notice?: string }, io: Io): Promise<number> {
  return new Promise<number>((resolve) => {
    let closing = false;
    const finish = (): void => {
      if (closing) return;
      closing = true;
      void engine
        .close()
        .catch((err: unknown) => session.files.debug('ui', `close failed: ${String(err)}`))
        .finally(() => {
          instance.unmount();
          const p = engine.state.phase;
          resolve(p === 'DONE' || p === 'CANCELLED' ? EXIT.done : EXIT.interrupted);
        });
    };
    const onQuit = (force: boolean): void => {
      if (!force) return finish();
      instance.unmount();
      io.stdout.write('agent-collab: forced exit; continue later with `agent-collab` (state is saved after every step)\n');
      process.exit(EXIT.interrupted);
    };
    const start = async (): Promise<void> => {
      if (o.resumed) return engine.resume();
      await engine.dispatch({ type: 'start', goal: o.goal ?? '' });
      if (o.goal) await engine.dispatch({ type: 'goal_ready', goal: o.goal });
    };
    const onEdit = async (file: EditableFile): Promise<void> => {
      openEditor(file === 'plan' ? session.paths.plan : session.paths.comments, io);
      instance.clear();
    };
    const signal = (): void => finish();
    process.once('SIGTERM', signal);
    process.once('SIGHUP', signal);
    const instance = render(
      createElement(App, {
        engine,
        files: filesReader(session),
        confirmEnter: session.config.workflow.confirm_enter,
        onQuit,
        onEdit,
        onAttention: () => attention(io),
        onReady: () => void start().catch((err: unknown) => session.files.debug('ui', `start failed: ${String(err)}`)),
        notice: o.notice,
      }),
      renderOptions(io),
    );
    void instance.waitUntilExit().finally(() => {
      process.off('SIGTERM', signal);
      process.off('SIGHUP', signal);
    });
  });
}
