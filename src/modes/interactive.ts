// Interactive mode: the Ink TUI over the same session and engine as headless mode. interactive-start.ts has drawn
// the first frame before this module (and the session, engine and agents it loads) is loaded.
import { spawnSync } from 'node:child_process';
import { withoutOwnerTag } from '../adapters/owned-processes.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Engine } from '../engine/runner.js';
import { redactedEngine, redactedFiles } from '../ui/redacted-engine.js';
import type { WorkflowState } from '../core/types.js';
import { EXIT, UserError } from '../core/errors.js';
import { attentionSequence } from '../ui/attention.js';
import type { Ui } from '../ui/load-ui.js';
import type { EditableFile, FilesReader, InputHistory, WatchedFile } from '../ui/ports.js';
import { inputHistory, INPUT_HISTORY_MAX } from '../ui/input-history.js';
import { inputHistoryPath, readInputHistory, saveInputHistory } from '../persistence/input-history.js';
import { readTail } from '../ui/read-tail.js';
import { conversationHistory } from '../ui/conversation-history.js';
import type { ViewAction } from '../ui/view-model.js';
import { budgetCaps, roleSetups, workdirExcluded, type Session } from './session.js';
import { commitDiff } from '../adapters/git/commit-diff.js';
import { runCommits } from '../adapters/git/run-commits.js';
import type { ResumeChoice } from '../core/decisions.js';
import type { AlternateScreen } from './alternate-screen.js';
import { tuiExitLine } from './tui-exit-line.js';
import { renderOptions, type InteractiveOptions, type Io } from './tui-io.js';

/** The question for an unfinished run (decisions table: RESUME_PROMPT); null when the person pressed Ctrl+C. */
async function askResume(
  s: WorkflowState,
  io: Io,
  { render, createElement, ResumeDialog }: Ui,
): Promise<ResumeChoice | null> {
  return new Promise<ResumeChoice | null>((resolve) => {
    let answered = false;
    const interrupted = (): void => answer(null);
    // Ctrl+C before Ink switches the terminal to raw mode arrives as SIGINT.
    process.on('SIGINT', interrupted);
    const released = io.screen.handles(['SIGINT']);
    const answer = (value: ResumeChoice | null): void => {
      if (answered) return;
      answered = true;
      process.off('SIGINT', interrupted);
      released();
      instance.clear();
      instance.unmount();
      resolve(value);
    };
    const instance = render(
      createElement(ResumeDialog, {
        phase: s.phase,
        iteration: s.iteration,
        goal: s.goal,
        onAnswer: (v: ResumeChoice) => answer(v),
        onInterrupt: () => answer(null),
      }),
      renderOptions(io),
    );
    void instance.waitUntilExit().finally(() => answer(null));
  });
}

/** Lines of debug.log the Log tab shows. */
export const DEBUG_TAIL_LINES = 200;

export function filesReader(session: Session): FilesReader {
  const { paths } = session;
  const watched = new Map<string, WatchedFile>([
    [path.resolve(paths.plan), 'plan'],
    [path.resolve(paths.comments), 'comments'],
    [path.resolve(paths.log), 'log'],
    [path.resolve(paths.debugLog), 'debug'],
  ]);
  const dirs = [...new Set([paths.workdir, path.dirname(paths.debugLog)].map((d) => path.resolve(d)))];
  return {
    readPlan: () => session.files.readPlan(),
    readComments: () => session.files.readComments(),
    readLog: () => readFile(paths.log, 'utf8').catch(() => null),
    readDebugTail: () => readTail(paths.debugLog, DEBUG_TAIL_LINES),
    // The Diff tab: git is read here (adapters), never by the UI; a commit gone from the repo reads as null.
    readCommitDiff: (commit) =>
      commitDiff(session.repoRoot, commit, workdirExcluded(session.repoRoot, paths.workdir)).catch(() => null),
    readRunCommits: (runId) => runCommits(session.repoRoot, runId).catch(() => null),
    watch: (onChange) => {
      // chokidar is loaded here, after the first frame (the App starts watching in an effect), not with the TUI.
      let closed = false;
      let close = (): void => undefined;
      void import('chokidar').then(
        ({ watch }) => {
          if (closed) return;
          // fs events, no polling and no awaitWriteFinish: a change is reported as soon as the OS reports it.
          const watcher = watch(dirs, { ignoreInitial: true, depth: 0, awaitWriteFinish: false, atomic: false });
          watcher.on('all', (_event, file) => {
            const which = watched.get(path.resolve(file));
            if (which) onChange(which);
          });
          watcher.on('error', () => undefined);
          close = () => void watcher.close();
        },
        () => undefined,
      ); // like a watcher error: the tabs then refresh on the engine's own events only
      return () => {
        closed = true;
        close();
      };
    },
  };
}

/** Opens the file in $VISUAL / $EDITOR (vi by default) on the terminal, while the TUI waits. */
export function openEditor(file: string, io: Pick<Io, 'stdin'> & { screen?: AlternateScreen }): void {
  const editor = process.env.VISUAL || process.env.EDITOR || 'vi';
  const quoted = `'${file.replace(/'/g, `'\\''`)}'`;
  const raw = io.stdin.isTTY ? io.stdin.isRaw : false;
  if (io.stdin.isTTY) io.stdin.setRawMode(false);
  io.screen?.lend(); // the editor gets the terminal as the shell had it: no mouse reports it did not ask for
  try {
    // The person's editor is theirs, not agent-collab's: without the owner tag, so that neither the watchdog nor the
    // next start ends it (or an editor server it starts) when agent-collab exits.
    const env = withoutOwnerTag(process.env);
    const r = spawnSync(`${editor} ${quoted}`, { shell: true, stdio: 'inherit', env });
    if (r.error) throw r.error;
    if (r.status !== 0) throw new Error(`${editor} exited with code ${r.status ?? r.signal ?? '?'}`);
  } finally {
    if (io.stdin.isTTY) io.stdin.setRawMode(raw);
    io.screen?.reenter(); // a full-screen editor leaves the alternate screen when it exits
  }
}

/** The goals and messages sent in earlier runs (↑ in a text box); each one sent is saved, redacted. */
async function openInputHistory(session: Session, homeDir: string | undefined): Promise<InputHistory> {
  const file = inputHistoryPath(session.repoRoot, homeDir);
  const saved = await readInputHistory(file, session.redactor, INPUT_HISTORY_MAX);
  return inputHistory(saved, {
    redact: (t) => session.redactor.text(t),
    save: (entries) =>
      void saveInputHistory(file, entries, session.redactor).catch((err: unknown) =>
        session.files.debug('ui', `input history not saved: ${String(err)}`),
      ),
  });
}

/** A bell, plus an OSC 9 notification on terminals known to show it (see ui/attention.ts). */
function attention(io: Io, what: string): void {
  io.stdout.write(attentionSequence(what));
}

/** After the first frame (the opening screen, which `closeOpening` takes away): the session, then the App. */
export async function runTui(opts: InteractiveOptions, io: Io, ui: Ui, closeOpening: () => void): Promise<number> {
  let session: Session;
  try {
    const { openSession } = await import('./session.js');
    session = await openSession({
      cwd: opts.cwd,
      homeDir: opts.homeDir,
      agents: opts.agents,
      overrides: opts.overrides,
      allowDetached: opts.allowDetached,
    });
  } catch (err) {
    closeOpening(); // the terminal is restored before the error's line is written
    throw err;
  }
  try {
    const notices: string[] = [];
    const { refuseUnsafeRepo } = await import('../adapters/git/repo-safety.js');
    const { confinementAtStart } = await import('./session.js');
    // Both checks wait on processes (git; the confinement probe): they run at once (measured: the goal box ~80 ms
    // sooner), and the repo's answer is taken first, as before.
    const confinementCheck = confinementAtStart(session.config).catch((err: unknown) => ({ failed: err }));
    const unsafe = await refuseUnsafeRepo(session.repoRoot, opts.allowDetached === true).catch((err: unknown) => err);
    if (unsafe) {
      closeOpening();
      throw unsafe;
    }
    const confinement = await confinementCheck;
    if (confinement && 'failed' in confinement) throw confinement.failed;
    if (confinement && 'error' in confinement) {
      closeOpening();
      throw new UserError(confinement.error);
    }
    if (confinement) notices.push(`warning: ${confinement.warning}`);
    const { missingAgentClis } = await import('./missing-clis.js');
    // First: the flash line is cut at the terminal's width, and without the CLI nothing can run.
    const missing = await missingAgentClis(session.config, session.repoRoot, opts.agents);
    notices.unshift(...missing.map((line) => `warning: ${line}`));
    if (session.corrupt)
      notices.push(
        `state.json could not be read (${session.corrupt.reason}); it was moved to ${session.corrupt.movedTo}`,
      );
    let state: WorkflowState | null = null;
    const saved = session.saved;
    if (saved.kind === 'unfinished') {
      closeOpening();
      const resume = await askResume(saved.state, io, ui);
      if (resume === null) return EXIT.interrupted;
      if (resume === 'quit') {
        io.screen.afterwards(
          'agent-collab: nothing changed; run `agent-collab` again to resume the unfinished run or archive it',
        );
        return EXIT.interrupted;
      }
      if (resume === 'resume') state = saved.state;
      else notices.push(`Archived the unfinished run to ${await session.archiveSaved(saved.state)}`);
    } else if (saved.kind === 'finished') {
      notices.push(`Archived the previous run to ${await session.archiveSaved(saved.state)}`);
    }
    const resumed = state !== null;
    const engine = session.engineFor(state ?? session.newRun(opts.goal ?? '', opts.mode ?? 'manual'), {
      interactive: true,
    });
    const history = state !== null ? await conversationHistory(session.paths.debugLog, state.createdAt) : [];
    const inputs = await openInputHistory(session, opts.homeDir);
    closeOpening();
    let ended = await runApp(
      session,
      engine,
      { resumed, goal: opts.goal, notice: notices.join(' · ') || undefined, history, inputs },
      io,
      ui,
    );
    // `n` after DONE or CANCELLED: the finished run goes to history/ (a cancelled one is there already) and a new
    // one starts in the same TUI, at goal refinement.
    while (ended.next === 'new_run') {
      const finished = ended.state;
      const notice =
        finished.phase === 'DONE'
          ? await session.archiveSaved(finished).then(
              (where) => `Archived the finished run to ${where}`,
              (err: unknown) =>
                `The finished run could not be archived (${String(err)}); it is archived at the next start`,
            )
          : undefined;
      // A new goal starts in manual mode, as a fresh start does.
      const next = session.engineFor(session.newRun('', 'manual'), { interactive: true });
      ended = await runApp(session, next, { resumed: false, notice, history: [], inputs }, io, ui);
    }
    return ended.code;
  } finally {
    closeOpening();
    await session.close();
  }
}

/** How one App ended: the process exits with `code`, or (`new_run`) a new run starts in the same TUI. */
interface AppEnd {
  code: number;
  next: 'exit' | 'new_run';
  state: WorkflowState;
}

const isFinished = (s: WorkflowState): boolean => s.phase === 'DONE' || s.phase === 'CANCELLED';

function runApp(
  session: Session,
  engine: Engine,
  o: { resumed: boolean; goal?: string; notice?: string; history: readonly ViewAction[]; inputs: InputHistory },
  io: Io,
  { render, createElement, App }: Ui,
): Promise<AppEnd> {
  return new Promise<AppEnd>((resolve) => {
    let closing = false;
    const closeEngine = (): Promise<void> =>
      engine.close().catch((err: unknown) => session.files.debug('ui', `close failed: ${String(err)}`));
    // An error with an exit code ends the run, as it ends a headless one (e.g. `.agent-collab/` deleted under it:
    // 3): the round under way is stopped at once and no other starts; the screen says why until the person leaves.
    let stoppedWith: { code: number; message: string } | null = null;
    const unsubscribe = engine.subscribe((out) => {
      if (out.type !== 'error' || out.exitCode === undefined || stoppedWith !== null) return;
      stoppedWith = { code: out.exitCode, message: session.redactor.text(out.message) };
      void closeEngine();
    });
    const finish = (next: AppEnd['next'] = 'exit'): void => {
      if (closing) return;
      closing = true;
      unsubscribe();
      void closeEngine()
        // Ctrl+C saves the run and leaves: its report says where it stands (not after an error that stopped it, nor
        // when the run is finished: DONE and cancelled runs wrote theirs when they ended).
        .then(() =>
          stoppedWith === null && !isFinished(engine.state) ? engine.reportInterrupted().catch(() => null) : null,
        )
        .then((report) => {
          instance.unmount();
          const state = engine.state;
          const code = stoppedWith?.code ?? (isFinished(state) ? EXIT.done : EXIT.interrupted);
          if (next === 'new_run' && isFinished(state) && !stoppedWith) return resolve({ code, next, state });
          io.screen.afterwards(tuiExitLine(state, stoppedWith?.message ?? null));
          if (report)
            io.screen.afterwards(session.redactor.text(`agent-collab: run report (${report.status}): ${report.path}`));
          resolve({ code, next: 'exit', state });
        })
        .catch(() => resolve({ code: EXIT.interrupted, next: 'exit', state: engine.state }));
    };
    const onQuit = (force: boolean): void => {
      if (!force) return finish();
      instance.unmount();
      io.screen.afterwards(
        'agent-collab: forced exit; continue later with `agent-collab` (state is saved after every step)',
      );
      process.exit(EXIT.interrupted); // the exit leaves the alternate screen and writes the line
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
    const signal = (): void => finish('exit');
    process.once('SIGTERM', signal);
    process.once('SIGHUP', signal);
    // Until Ink puts the terminal in raw mode (an effect after the first frame), Ctrl+C reaches us as SIGINT:
    // it means the same as the key then.
    process.on('SIGINT', signal);
    const released = io.screen.handles(['SIGTERM', 'SIGHUP', 'SIGINT']);
    io.screen.mouse(session.config.tui.mouse);
    const instance = render(
      createElement(App, {
        engine: redactedEngine(engine, session.redactor),
        files: redactedFiles(filesReader(session), session.redactor),
        confirmEnter: session.config.workflow.confirm_enter,
        onQuit,
        onNewRun: () => finish('new_run'),
        onEdit,
        onAttention: (what: string) => attention(io, what),
        onReady: () => void start().catch((err: unknown) => session.files.debug('ui', `start failed: ${String(err)}`)),
        notice: o.notice,
        sandboxOff: session.config.safety.sandbox === 'off',
        budget: budgetCaps(session.config),
        roles: roleSetups(session.config),
        history: o.history,
        inputHistory: o.inputs,
      }),
      renderOptions(io),
    );
    void instance.waitUntilExit().finally(() => {
      process.off('SIGTERM', signal);
      process.off('SIGHUP', signal);
      process.off('SIGINT', signal);
      released();
    });
  });
}
