// `import { run } from 'agent-collab'`: a headless run (modes/headless.ts) driven in-process — the same session and
// engine as `agent-collab run --json`, its events handed to `onEvent` instead of printed, the person's decisions
// asked of `decide`, Ctrl+C replaced by an AbortSignal. It installs no signal handlers, writes nothing to the
// process's stdout or stderr and never exits the process: every failure is a rejected promise with one line.
import { statSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { UserError } from '../core/errors.js';
import { createRedactor, redactText, secretEnvValues } from '../core/redact.js';
import type { Agent, Awaiting, Role, WorkflowState } from '../core/types.js';
import type { RoleSetup } from '../core/run-report.js';
import { isPlainObject } from '../persistence/deep-merge.js';
import { validateConfigLayer } from '../persistence/config.js';
import { asUserError } from '../persistence/fs-errors.js';
import { NoRunToResume, runHeadless } from '../modes/headless.js';
import type { NeedsHumanEvent, RunEvent } from '../modes/run-events.js';
import { decideEvent } from './decide.js';
import type { RoleUsage, RunOptions, RunResult, RunStep, RunWorktreeInfo, UsageNumbers } from './types.js';

/** Nothing of the run goes to a stream: events go to `onEvent`, and JSON mode writes no text. */
const discard = (): Writable => new Writable({ write: (_chunk, _enc, done) => done() });

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

/** The options' shapes, checked as the CLI checks its flags: one line naming the option. */
function checkOptions(o: RunOptions): void {
  if (!isPlainObject(o)) throw new UserError('run() takes an options object: run({ cwd, goal, … })');
  if (typeof o.cwd !== 'string' || !o.cwd) throw new UserError('run() needs cwd: a directory inside a git repository');
  let isDir = false;
  try {
    isDir = statSync(o.cwd).isDirectory();
  } catch {
    throw new UserError(`cwd ${path.resolve(o.cwd)} does not exist; pass an existing directory`);
  }
  if (!isDir) throw new UserError(`cwd ${path.resolve(o.cwd)} is not a directory; pass a directory`);
  if (o.goal !== undefined && typeof o.goal !== 'string') throw new UserError('goal must be a string');
  if (!o.goal?.trim() && !o.resume)
    throw new UserError('run() needs a goal to start a run, or resume: true to go on with an unfinished one');
  const m = o.maxIterations;
  if (m !== undefined && !(Number.isInteger(m) && m >= 1 && m <= 100))
    throw new UserError(`maxIterations must be a whole number from 1 to 100 (got ${String(m)})`);
  for (const key of ['onEvent', 'decide'] as const)
    if (o[key] !== undefined && typeof o[key] !== 'function') throw new UserError(`${key} must be a function`);
  if (o.resume && o.fresh) throw new UserError('resume and fresh cannot be used together; pick one');
  if (o.config !== undefined && !isPlainObject(o.config))
    throw new UserError('config must be an object of config tables, e.g. { roles: { planner: "codex" } }');
  if (o.config !== undefined) validateConfigLayer(o.config, 'the config option of run()');
  if (o.signal?.aborted) throw new UserError('the signal was aborted before run() started; nothing ran');
  checkWorktreeOption(o);
}

/** `worktree` as the CLI's `--worktree [name]`: a new run only (its name is checked when the worktree is made). */
function checkWorktreeOption(o: RunOptions): void {
  const w = o.worktree;
  if (w === undefined || w === false) return;
  if (w !== true && (typeof w !== 'string' || !w))
    throw new UserError('worktree must be true (named after the goal) or a name for the worktree and its branch');
  if (o.resume)
    throw new UserError(
      'worktree starts a new run in a new worktree: to continue a run there, use run({ cwd: <its path>, resume: true })',
    );
}

/** Makes the run's worktree when asked (`worktree` option); the run then goes there, the person's checkout untouched. */
async function worktreeFor(o: RunOptions): Promise<RunWorktreeInfo | null> {
  if (o.worktree === undefined || o.worktree === false) return null;
  const { createRunWorktree } = await import('../adapters/git/run-worktree.js');
  const wt = await createRunWorktree({
    repoRoot: path.resolve(o.cwd),
    goal: o.goal,
    ...(typeof o.worktree === 'string' ? { name: o.worktree } : {}),
  });
  return { path: wt.path, branch: wt.branch };
}

/**
 * The runs following each caller's signal, behind one `abort` listener per signal: one signal shared by a dozen
 * runs (to stop them all) must not trip Node's MaxListeners warning on it.
 */
const followers = new WeakMap<AbortSignal, Set<() => void>>();

function follow(signal: AbortSignal, onAbort: () => void): () => void {
  if (signal.aborted) {
    onAbort(); // aborted since checkOptions: its one listener has already fired
    return () => undefined;
  }
  let runs = followers.get(signal);
  if (!runs) {
    const set = new Set<() => void>();
    runs = set;
    followers.set(signal, set);
    signal.addEventListener('abort', () => [...set].forEach((f) => f()), { once: true });
  }
  runs.add(onAbort);
  return () => runs.delete(onAbort);
}

/** What agent-collab's own callers (the queue) add to a run: its layered context, and agents in tests. */
export interface InternalRunOptions {
  context?: string;
  agents?: Partial<Record<Role, Agent>>;
}

export async function run(options: RunOptions): Promise<RunResult> {
  return runWith(options, {});
}

export async function runWith(options: RunOptions, internal: InternalRunOptions): Promise<RunResult> {
  try {
    return await runChecked(options, internal);
  } catch (err) {
    // The one line echoes bad input (a config value): redacted like the events.
    if (!(err instanceof UserError)) throw err;
    throw new UserError(redactText(err.message, secretEnvValues(process.env)), err.exitCode);
  }
}

async function runChecked(options: RunOptions, internal: InternalRunOptions): Promise<RunResult> {
  checkOptions(options);
  const worktree = await worktreeFor(options);
  const cwd = worktree?.path ?? path.resolve(options.cwd);
  // The caller's signal, and a listener (onEvent) that threw: both stop the run as Ctrl+C does.
  const stop = new AbortController();
  const unfollow = options.signal ? follow(options.signal, () => stop.abort()) : () => undefined;
  let needsHuman: NeedsHumanEvent | null = null;
  let report: string | null = null;
  let listenerError: unknown = null;
  let end: { state: WorkflowState; roles: Record<Role, RoleSetup> } | null = null;
  const onEvent = (event: RunEvent): void => {
    if (event.event === 'needs_human') needsHuman = event;
    if (event.event === 'report') report = event.path;
    if (!options.onEvent || listenerError !== null) return;
    try {
      options.onEvent(event);
    } catch (err) {
      listenerError = err;
      stop.abort();
    }
  };
  const { decide } = options;
  let exitCode: number;
  try {
    exitCode = await runHeadless({
      cwd,
      goal: options.goal,
      auto: options.auto ?? false,
      autoApprove: options.autoApprove,
      json: true,
      maxIterations: options.maxIterations,
      resume: options.resume ? 'resume' : options.fresh ? 'fresh' : 'ask',
      ask: null,
      handleSignals: false,
      config: options.config,
      onEvent,
      // The needs_human event was handed out just before the run asks (printer, then the hook).
      decide: decide ? async (w: Awaiting) => decideEvent(w, needsHuman!, await decide(needsHuman!)) : undefined,
      signal: stop.signal,
      onEnd: (e) => (end = e),
      ...(internal.context ? { context: internal.context } : {}),
      ...(internal.agents ? { agents: internal.agents } : {}),
      stdout: discard(),
      stderr: discard(),
    });
  } catch (err) {
    if (err instanceof NoRunToResume)
      throw new UserError('there is no unfinished run to resume here; start one with run({ cwd, goal: "…" })');
    throw inWorktree(asUserError(err), worktree);
  } finally {
    unfollow();
  }
  if (listenerError !== null)
    throw inWorktree(
      new UserError(
        `onEvent threw (${firstLine(listenerError)}); the run was stopped and saved: resume it with resume: true`,
      ),
      worktree,
    );
  // No engine ran: the only such end is an unfinished run found without resume nor fresh (headless's exit 3).
  if (!end)
    throw new UserError(
      'the repo has an unfinished run: pass resume: true to go on with it, or fresh: true to archive it and start a new one',
      exitCode,
    );
  // Built from the run's state in memory, which holds the real values: redacted like the events (a step's title is
  // the agent's text). Commits, paths and the branch are read back by the caller: kept as they are.
  const redactor = createRedactor(secretEnvValues(process.env));
  return { ...redactor.deep(resultOf(end, exitCode, report), RESULT_VERBATIM), worktree };
}

const RESULT_VERBATIM: ReadonlySet<string> = new Set(['commit', 'report', 'phase']);

/** A run that failed in its new worktree says where that is: the worktree and branch stay for the person. */
function inWorktree(err: unknown, worktree: RunWorktreeInfo | null): unknown {
  if (!worktree || !(err instanceof UserError)) return err;
  return new UserError(`${err.message} (in worktree ${worktree.path}, branch ${worktree.branch})`, err.exitCode);
}

function resultOf(
  end: { state: WorkflowState; roles: Record<Role, RoleSetup> },
  exitCode: number,
  report: string | null,
): Omit<RunResult, 'worktree'> {
  const s = end.state;
  const steps: RunStep[] = s.steps.map((st) => ({
    number: st.n,
    title: st.title,
    status: st.done ? 'done' : st.skipped ? 'skipped' : st.n === s.currentStep ? 'in_progress' : 'pending',
    commit: st.commit ?? null,
  }));
  const role = (r: Role): RoleUsage => {
    const u = s.roleUsage?.[r];
    return {
      ...end.roles[r],
      calls: u?.calls ?? 0,
      inputTokens: u?.inputTokens ?? 0,
      outputTokens: u?.outputTokens ?? 0,
      cachedTokens: u?.cachedTokens ?? 0,
      costUsd: u?.costUsd ?? 0,
      agentMs: s.budget?.workedMsByRole?.[r] ?? 0,
    };
  };
  const u = s.usage;
  const total: UsageNumbers = {
    calls: u.calls,
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    cachedTokens: u.cachedTokens,
    costUsd: u.costUsd,
    agentMs: s.budget?.workedMs ?? 0,
  };
  return {
    phase: s.phase,
    exitCode,
    steps,
    usage: { planner: role('planner'), reviewer: role('reviewer'), total },
    report,
  };
}
