// Opens a workflow session in a repo: config, files, lock, saved state, agents and the engine.
// Both the interactive and the headless mode start here, so they drive exactly the same engine.
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createAgent } from '../adapters/index.js';
import { startCommandHookServer, type CommandHookServer } from '../adapters/command-hook/server.js';
import type { CommandGate } from '../core/ports.js';
import path from 'node:path';
import { ShellTestRunner } from '../adapters/test-runner.js';
import { agentConfinement, checkConfinement } from '../adapters/confinement/index.js';
import { reapOrphans } from '../adapters/reap-orphans.js';
import { startWatchdog } from '../adapters/owned-processes.js';
import { excludeWorkdir, locateRepo } from '../adapters/git/git.js';
import { BoxedCommit } from '../adapters/git/boxed-commit.js';
import { GitPathsOnce } from '../adapters/git/git-paths.js';
import { GitRepoState } from '../adapters/git/repo-state.js';
import { GitStepWorkspace } from '../adapters/git/step-workspace.js';
import { RunArtifacts } from '../persistence/artifacts.js';
import { commandPolicy } from './command-policy.js';
import { renderPrompt } from '../persistence/prompt-templates.js';
import { renderContext, withContext } from '../core/layered-context.js';
import { readContextLayers } from '../queue/context-files.js';
import { Engine } from '../engine/runner.js';
import type { Agent, Mode, Role, WorkflowState } from '../core/types.js';
import type { Config } from '../persistence/config-schema.js';
import type { BudgetCaps } from '../core/budget.js';
import { loadConfig, type DeepPartial } from '../persistence/config.js';
import { DiskRunReports } from '../engine/run-report.js';
import { pruneRuns } from '../persistence/runs-prune.js';
import { DebugLog } from '../persistence/debug-log.js';
import { acquireInstanceLock } from '../persistence/instance-lock.js';
import { checkPathsStayInRepo, resolvePaths, type Paths } from '../persistence/paths.js';
import { parseSize } from '../persistence/size.js';
import { newState, readState } from '../persistence/state-store.js';
import { DiskWorkflowFiles } from '../persistence/workflow-files.js';
import { isTerminal } from '../core/transition.js';
import { isEmptyRun } from '../core/transition-rules.js';
import { openReviewEntries } from '../core/ledger.js';
import { createRedactor, secretEnvValues, type Redactor } from '../core/redact.js';
import { EXIT, UserError } from '../core/errors.js';

export interface OpenOptions {
  cwd: string;
  overrides?: DeepPartial<Config>;
  /** Agents to use instead of the configured ones (tests, demo). */
  agents?: Partial<Record<Role, Agent>>;
  homeDir?: string;
  /** `--allow-detached`: step commits may go onto a detached HEAD. */
  allowDetached?: boolean;
  /** Told if the instance lock is lost while held; default: a warning on stderr. */
  onLockLost?: (message: string) => void;
  /**
   * Layered context given to the agents after every rendered prompt, the project's context.md included (the queue
   * adds the context files its instruction names). Without it, the project's `.agent-collab/context.md` is read.
   */
  context?: string;
}

export type SavedRun =
  { kind: 'none' } | { kind: 'finished'; state: WorkflowState } | { kind: 'unfinished'; state: WorkflowState };

export interface Session {
  /** The top of the repository's work tree. */
  repoRoot: string;
  config: Config;
  paths: Paths;
  files: DiskWorkflowFiles;
  /** The one redaction layer (known token formats + this process's secret variables) every sink applies. */
  redactor: Redactor;
  agents: Record<Role, Agent>;
  /** The run found on disk when the session opened. */
  saved: SavedRun;
  /** Set when state.json could not be read: where it was moved and why. */
  corrupt: { movedTo: string; reason: string } | null;
  /**
   * Builds the engine over `state` (a saved one to resume, or a new one). `interactive`: a person can answer held
   * commands (the TUI); else blocked and confirm-required commands are denied unless `allowCmd` prefixes allow them.
   */
  engineFor(
    state: WorkflowState,
    run?: { interactive?: boolean; allowCmd?: readonly string[]; outputDrained?: () => Promise<void> | undefined },
  ): Engine;
  newRun(goal: string, mode: Mode): WorkflowState;
  /** Moves the saved run to history/. */
  archiveSaved(state: WorkflowState): Promise<string>;
  /** Where the agents' PreToolUse hooks ask before each shell command; answered by the latest engineFor()'s engine. */
  commandHooks: CommandHookServer;
  close(): Promise<void>;
}

/**
 * The project's `.agent-collab/context.md`, rendered; '' when there is none (a run in a worktree has its copy).
 * A link out of the repo is a one-line error rather than a silent skip: the person learns why it is not used.
 */
async function projectContext(repoRoot: string): Promise<string> {
  const read = await readContextLayers(repoRoot, []);
  if (!read.ok) throw new UserError(read.reason);
  return renderContext(read.layers);
}

export function newRunId(now = new Date()): string {
  return `${now.toISOString().slice(0, 19).replace(/[-:T]/g, '')}-${randomBytes(3).toString('hex')}`;
}

/** Opens in a plain order: the repo, its config, the instance lock, the work dir kept out of git, the hook server, the agents. */
export async function openSession(opts: OpenOptions): Promise<Session> {
  const repo = await locateRepo(opts.cwd);
  const { config } = loadConfig({ repoRoot: repo.root, homeDir: opts.homeDir, overrides: opts.overrides });
  const paths = resolvePaths(repo.root, config);
  checkPathsStayInRepo(paths, config);
  const repoRoot = repo.root;
  await mkdir(paths.workdir, { recursive: true });
  const release = await acquireInstanceLock(paths.workdir, opts.onLockLost ? { onCompromised: opts.onLockLost } : {});
  let commandHooks: CommandHookServer | null = null;
  try {
    await excludeWorkdir(repo.excludeFile, relativeWorkdir(config));
    // Read once: the values of agent-collab's own secret-looking variables are hidden wherever they turn up.
    const redactor = createRedactor(secretEnvValues(process.env));
    const debugLog = new DebugLog(
      paths.debugLog,
      parseSize(config.paths.debug_log_max_size) ?? 10 * 1024 * 1024,
      undefined,
      redactor,
    );
    const files = new DiskWorkflowFiles(paths, debugLog, redactor);
    // Before anything runs or the tree is looked at: nothing an earlier, killed agent-collab started may still write.
    const reaped = await reapOrphans(paths.workdir);
    startWatchdog();
    for (const p of reaped.ended) files.debug('agent-collab', `ended, left running by an earlier agent-collab: ${p}`);
    for (const p of reaped.survivors)
      files.debug('agent-collab', `still running after SIGKILL, left by an earlier agent-collab: ${p}`);
    // Bound late: the engine that answers is built by engineFor(); until then every command is denied.
    let commandGate: CommandGate = () =>
      Promise.resolve({ allow: false, reason: 'agent-collab has no run under way to check the command against' });
    const hooks = await startCommandHookServer({
      gate: (check) => commandGate(check),
      confirmTimeoutSeconds: config.safety.confirm_timeout_seconds,
      debug: (source, line) => files.debug(source, line),
    });
    commandHooks = hooks;
    const read = await readState(paths);
    // From here on, state.json is the file agent-collab read: another one in its place stops the run.
    if (read.kind === 'ok') await files.watch.stateIs(read.state);
    const saved: SavedRun =
      read.kind === 'ok'
        ? isTerminal(read.state.phase)
          ? { kind: 'finished', state: read.state }
          : isEmptyRun(read.state)
            ? { kind: 'none' } // nothing to resume nor to archive: the new run takes its place
            : { kind: 'unfinished', state: read.state }
        : { kind: 'none' };
    if (saved.kind === 'unfinished' && saved.state.stepRun !== null && reaped.ended.length > 0)
      throw orphanedStepError(saved.state.stepRun.step, reaped.ended.length);
    await pruneRuns(
      path.join(paths.workdir, 'runs'),
      parseSize(config.paths.runs_max_size) ?? 200 * 1024 * 1024,
      saved.kind === 'unfinished' ? saved.state.runId : null,
      (line) => files.debug('agent-collab', line),
    );
    const agentFor = async (role: Role): Promise<Agent> =>
      opts.agents?.[role] ??
      (await createAgent(config.roles[role], { role, config, paths, debug: files, hook: hooks.endpoint(role) }));
    const agents: Record<Role, Agent> = { planner: await agentFor('planner'), reviewer: await agentFor('reviewer') };
    const options = {
      maxIterations: config.workflow.max_iterations,
      autoApprove: config.workflow.auto_approve,
      budget: budgetCaps(config),
      execution: {
        maxRetries: config.test.max_retries,
        testFallbackToAgent: config.test.fallback_to_agent,
        maxDenials: config.safety.max_denials_per_step,
      },
      codeReview: { mode: config.review.code, maxRounds: config.review.max_code_rounds },
      limits: { waitForReset: config.limits.wait_for_reset, maxWaitMinutes: config.limits.max_wait_minutes },
    };
    // One read of where git keeps its files, for the guard, the boxed commit and the workspace.
    const gitPaths = new GitPathsOnce(repoRoot);
    const repoGuard = new GitRepoState({ ...paths, configDir: path.dirname(paths.configFile) }, gitPaths);
    // With the sandbox on, the step commit's hooks run in the agent's box and are checked afterwards.
    const commitBox =
      config.safety.sandbox === 'on'
        ? new BoxedCommit(agentConfinement(paths.workdir), repoGuard, path.join(paths.workdir, 'backups'), gitPaths).run
        : undefined;
    const workspace = new GitStepWorkspace(
      repoRoot,
      relativeWorkdir(config),
      {
        allowDetached: opts.allowDetached === true,
        maxFileBytes: parseSize(config.safety.max_file_size) ?? 5 * 1024 * 1024,
        maxFiles: config.safety.max_files_per_step,
      },
      redactor.known,
      commitBox,
      gitPaths,
    );
    const tests = new ShellTestRunner(
      repoRoot,
      config.test,
      (source, line) => files.debug(source, line),
      config.safety.sandbox === 'on' ? agentConfinement(paths.workdir) : null,
      redactor,
    );
    // Every run gets the project's context, not only the queue's; redacted like every other input an agent reads
    // (it is the person's file, not checked).
    const context = redactor.text(opts.context ?? (await projectContext(repoRoot)));
    const prompts = {
      render: async (name: Parameters<typeof renderPrompt>[0], vars: Record<string, string | number>) =>
        withContext(await renderPrompt(name, vars, { overrideDir: paths.promptsOverride }), context),
    };
    return {
      repoRoot,
      config,
      paths,
      files,
      redactor,
      agents,
      saved,
      corrupt: read.kind === 'corrupt' ? { movedTo: read.movedTo, reason: read.reason } : null,
      engineFor: (state, run) => {
        const artifacts = new RunArtifacts(
          path.join(paths.workdir, 'runs'),
          state.runId,
          (source, line) => files.debug(source, line),
          redactor,
        );
        // The run's records say which models and efforts played (each session, as the config may change between).
        void artifacts.timeline(`agents: ${describeRoles(config)}`);
        const engine = new Engine(state, {
          repoRoot,
          files,
          prompts,
          agents,
          options,
          retry: {
            infraRetries: config.retry.infra_retries,
            backoffMs: config.retry.backoff_seconds * 1000,
            maxRetryWaitMs: config.timeouts.max_retry_wait_seconds * 1000,
          },
          workspace,
          repoGuard,
          tests,
          artifacts,
          commands: commandPolicy(config, { interactive: run?.interactive ?? false, allowCmd: run?.allowCmd ?? [] }),
          reports: new DiskRunReports({
            repoRoot,
            workdir: paths.workdir,
            logFile: paths.log,
            readPlan: () => files.readPlan(),
            pathspec: workdirExcluded(repoRoot, paths.workdir),
            roles: roleSetups(config),
            redactor,
            openEntries: (state) => openReviewEntries(state.ledger),
          }),
          ...(run?.outputDrained ? { outputDrained: run.outputDrained } : {}),
        });
        commandGate = (check) => engine.checkCommand(check);
        return engine;
      },
      newRun: (goal, mode) =>
        newState({ runId: newRunId(), goal, mode, maxIterations: config.workflow.max_iterations }),
      archiveSaved: (state) => files.archive(state),
      commandHooks: hooks,
      close: async () => {
        await hooks.close();
        await debugLog.flush();
        await release();
      },
    };
  } catch (err) {
    await commandHooks?.close();
    await release();
    throw err;
  }
}

/** Shown at every start (and in the TUI status bar) while `[safety] sandbox = "off"`. */
export const SANDBOX_OFF_WARNING =
  'confinement is off ([safety] sandbox = "off"): agents\' write turns and the test command can change anything your user can, .git and .agent-collab included';

/**
 * Checked before a run starts (before the planner spends a round: the run will need write turns). `error`: no
 * confinement although it is on — the run must not start; `warning`: it is off.
 */
export async function confinementAtStart(
  config: Config,
  check: () => Promise<string | null> = checkConfinement,
): Promise<{ error: string } | { warning: string } | null> {
  if (config.safety.sandbox === 'off') return { warning: SANDBOX_OFF_WARNING };
  const problem = await check();
  return problem === null ? null : { error: problem };
}

/**
 * Processes of a killed agent-collab were still running when this one started: they may have changed the tree
 * after the step's last look at it, so the step does not go on by itself (the next start finds them gone).
 */
function orphanedStepError(step: number, count: number): UserError {
  return new UserError(
    `an earlier agent-collab was killed during step ${step} and left ${count} process(es) running, now ended; ` +
      'they may have changed files after it died: check `git status` and `git diff`, then run `--resume` again',
    EXIT.needsHuman,
  );
}

/** Everything in the repo but agent-collab's work dir, as a git pathspec (the run report's files changed). */
export function workdirExcluded(repoRoot: string, workdir: string): string[] {
  const rel = path.relative(repoRoot, workdir).split(path.sep).join('/');
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? ['.', `:(top,exclude,literal)${rel}`] : ['.'];
}

function relativeWorkdir(config: Config): string {
  return config.paths.workdir.replace(/^\.\/+/, '').replace(/\/+$/, '');
}

/** The `[budget]` caps the core checks (0 = no cap). */
export function budgetCaps(config: Config): BudgetCaps {
  return { tokens: config.budget.max_tokens, cost: config.budget.max_cost_usd, minutes: config.budget.max_minutes };
}

/** Who plays each role with which model and effort ("" = the CLI's default): Status tab and the run's timeline. */
export function roleSetups(config: Config): Record<Role, { agent: string; model: string; effort: string }> {
  const of = (role: Role) => ({
    agent: config.roles[role],
    model: config.roles[`${role}_model`],
    effort: config.roles[`${role}_effort`],
  });
  return { planner: of('planner'), reviewer: of('reviewer') };
}

/** One line for the run's records: "planner codex (model gpt-5.5, effort high); reviewer claude (…)". */
export function describeRoles(config: Config): string {
  const setups = roleSetups(config);
  return (['planner', 'reviewer'] as const)
    .map((role) => {
      const r = setups[role];
      return `${role} ${r.agent} (model ${r.model || 'CLI default'}, effort ${r.effort || 'CLI default'})`;
    })
    .join('; ');
}
