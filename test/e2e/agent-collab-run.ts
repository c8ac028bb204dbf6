/**
 * Helpers for running the BUILT agent-collab CLI (`node dist/cli.js`) on the real claude/codex CLIs against the
 * scripted LLM server: a project config.toml pointing at the cached binaries with small timeouts, a runner that
 * parses the NDJSON events, readers for `.agent-collab/` files, and a scan for processes a run left behind.
 */
import { readdirSync, readFileSync, readlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { CLI } from '../helpers/cli.js';
import { startCli, type CliResult, type JsonLine, type RunningCli } from './harness.js';

export interface AgentCollabConfig {
  /** Absolute paths of the cached binaries. */
  claude: string;
  codex: string;
  /** Absolute path of the cached opencode (`[agents.opencode] command`; not written when missing). */
  opencode?: string;
  planner?: 'codex' | 'claude' | 'opencode';
  reviewer?: 'codex' | 'claude' | 'opencode';
  /** `[roles] planner_model`, `reviewer_model`, `planner_effort`, `reviewer_effort` (not written when missing). */
  models?: Partial<Record<'planner_model' | 'reviewer_model' | 'planner_effort' | 'reviewer_effort', string>>;
  wallSeconds?: number;
  idleSeconds?: number;
  infraRetries?: number;
  backoffSeconds?: number;
  /** `[test] default_command` (default "auto") and `fallback_to_agent` (default false: no planner round for it). */
  testCommand?: string;
  testFallbackToAgent?: boolean;
  maxRetries?: number;
  /** `[timeouts] max_retry_wait_seconds` (default: not written, so agent-collab's default applies). */
  maxRetryWaitSeconds?: number;
  /** `[review] code`: "off" unless a test reviews the code (each review is one more scripted reviewer request). */
  codeReview?: 'final' | 'each' | 'off';
  /** `[review] max_code_rounds` (default: not written). */
  maxCodeRounds?: number;
}

/** `.agent-collab/config.toml` for the repo: every key the e2e tests depend on, explicitly. */
export function agentCollabConfigToml(c: AgentCollabConfig): string {
  const wall = c.wallSeconds ?? 60;
  const idle = c.idleSeconds ?? 20;
  return [
    '[roles]',
    `planner = "${c.planner ?? 'codex'}"`,
    `reviewer = "${c.reviewer ?? 'claude'}"`,
    ...Object.entries(c.models ?? {}).map(([k, v]) => `${k} = ${JSON.stringify(v)}`),
    '',
    '[agents.codex]',
    `command = ${JSON.stringify(c.codex)}`,
    '',
    '[agents.claude]',
    `command = ${JSON.stringify(c.claude)}`,
    '',
    ...(c.opencode !== undefined ? ['[agents.opencode]', `command = ${JSON.stringify(c.opencode)}`, ''] : []),
    ...(c.maxRetryWaitSeconds !== undefined
      ? ['[timeouts]', `max_retry_wait_seconds = ${c.maxRetryWaitSeconds}`, '']
      : []),
    '[timeouts.planner]',
    `wall_seconds = ${wall}`,
    `idle_seconds = ${idle}`,
    '',
    '[timeouts.reviewer]',
    `wall_seconds = ${wall}`,
    `idle_seconds = ${idle}`,
    '',
    '[retry]',
    `infra_retries = ${c.infraRetries ?? 0}`,
    `backoff_seconds = ${c.backoffSeconds ?? 0.1}`,
    '',
    '[review]',
    `code = "${c.codeReview ?? 'off'}"`,
    ...(c.maxCodeRounds !== undefined ? [`max_code_rounds = ${c.maxCodeRounds}`] : []),
    '',
    '[test]',
    `default_command = ${JSON.stringify(c.testCommand ?? 'auto')}`,
    `fallback_to_agent = ${String(c.testFallbackToAgent ?? false)}`,
    `max_retries = ${c.maxRetries ?? 3}`,
    '',
  ].join('\n');
}

export function writeAgentCollabConfig(repo: string, c: AgentCollabConfig): void {
  mkdirSync(path.join(repo, '.agent-collab'), { recursive: true });
  writeFileSync(path.join(repo, '.agent-collab', 'config.toml'), agentCollabConfigToml(c));
}

/**
 * Starts `node dist/cli.js <args>` in `repo` with the per-test env (stdin ignored, own process group). The timeout
 * only catches a hang: a full loop of eight real-CLI calls took over 30 s on a loaded 2-core CI (three test files
 * at once), so it is well above that and below the e2e tier's 120 s per test.
 */
export function startAgentCollab(
  args: string[],
  opts: { repo: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): RunningCli {
  return startCli(process.execPath, [CLI, ...args], {
    cwd: opts.repo,
    env: opts.env,
    timeoutMs: opts.timeoutMs ?? 80_000,
  });
}

/** Runs `node dist/cli.js <args>` to the end; see startAgentCollab. */
export function agentCollab(
  args: string[],
  opts: { repo: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<CliResult> {
  return startAgentCollab(args, opts).done;
}

/** The NDJSON events of a run with `event === name`. */
export function events(r: CliResult, name: string): JsonLine[] {
  return r.lines.filter((l) => l.event === name);
}

export function readWork(repo: string, file: string): string {
  return readFileSync(path.join(repo, '.agent-collab', file), 'utf8');
}

export interface SavedState {
  phase: string;
  iteration: number;
  sessions: { planner: string | null; reviewer: string | null };
  steps: Array<{ n: number; title: string; done: boolean; commit: string | null }>;
  [key: string]: unknown;
}

export function readState(repo: string): SavedState {
  return JSON.parse(readWork(repo, 'state.json')) as SavedState;
}

export function writeState(repo: string, state: SavedState): void {
  writeFileSync(path.join(repo, '.agent-collab', 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
}

export function gitSubjects(repo: string): string[] {
  return execFileSync('git', ['log', '--format=%s'], { cwd: repo, encoding: 'utf8' }).trim().split('\n');
}

/**
 * Live (non-zombie) processes that belong to a test: their cwd is under `root` or their environment has
 * `HOME=<home>`. The test's own process is not counted.
 */
export function processesOf(root: string, home: string): Array<{ pid: number; cmd: string }> {
  const found: Array<{ pid: number; cmd: string }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${name}/cwd`);
      } catch {
        // not ours to read
      }
      let environ = '';
      try {
        environ = readFileSync(`/proc/${name}/environ`, 'utf8');
      } catch {
        // not ours to read
      }
      if (cwd === root || cwd.startsWith(`${root}/`) || environ.split('\0').includes(`HOME=${home}`)) {
        const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
        found.push({ pid: Number(name), cmd });
      }
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * What is still running of `root`/`home` once things had up to `ms` to end: agent-collab's watchdog, for one, exits
 * just after agent-collab does, which takes a moment on a loaded machine. A CLI left running stays in the list.
 */
export async function processesLeft(
  root: string,
  home: string,
  ms = 5_000,
): Promise<Array<{ pid: number; cmd: string }>> {
  const deadline = Date.now() + ms;
  let left = processesOf(root, home);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = processesOf(root, home);
  }
  return left;
}

/** A two-step plan the scripted planner answers with (the e2e tests and the bench's loop). */
export function plan(
  version: string,
  steps = ['Create a.txt with the text A', 'Create b.txt with the text B'],
): string {
  return [
    `# Plan ${version}`,
    '',
    `Files for the goal (${version}).`,
    '',
    '## Steps',
    ...steps.map((s, i) => `${i + 1}. [ ] ${s}`),
    '',
  ].join('\n');
}
