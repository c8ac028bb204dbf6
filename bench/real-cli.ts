// agent-collab on the REAL codex and claude CLIs (talking to the scripted LLM server of the e2e tests) next to the
// same CLI invocations run bare, measured side by side in one run.
//
//   agent-collab = wall time of `bin/agent-collab run --goal … --auto --auto-approve --json`: codex plans, claude
//                  asks for changes, codex revises, claude approves, codex executes 2 steps (each committed)
//   bare CLIs    = the sum of the wall times of the same invocations (argv, cwd, env, prompt on stdin), replayed in
//                  order with the same server replies, in a fresh HOME and repo at the same paths; session ids the
//                  bare runs create replace the recorded ones, and agent-collab's command-hook arguments are left out
//                  (the hook is agent-collab's cost)
//
// The invocations are recorded once, in an unmeasured run, by a wrapper set as `[agents.*] command`; the measured
// runs call the real CLIs directly. How long each CLI ran inside agent-collab is read from its debug.log.
//
// The goal is measured with every model reply taking 2 s, as a model's does: then the ratio says what agent-collab
// adds to real use. With instant replies its fixed costs (start, a snapshot and commit per step) weigh far more;
// that ratio is printed as information. Pairs alternate which side goes first; the figure is the median of the
// pairs' ratios.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { plan, writeAgentCollabConfig } from '../test/e2e/agent-collab-run.js';
import { makeCliEnv, type CliEnv } from '../test/e2e/cli-env.js';
import { installE2eClis } from '../test/e2e/install.js';
import { reply, startLlmServer, type LlmServer } from '../test/e2e/llm-server.js';
import { readInvocations, writeRecorder, type Invocation } from './cli-recorder.js';
import { BIN } from './startup.js';
import { goal, median, ms, sum, table } from './stats.js';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');
const GOAL_RATIO = 1.05;
const GOAL = 'Add two text files a.txt and b.txt';
const PROCESS_TIMEOUT_MS = 180_000;

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Spawn to the leader's exit (`ms` is spawn to closed pipes). */
  exitMs: number;
}

/**
 * Spawns like agent-collab does (own process group; the prompt, if any, written to stdin and stdin closed), waits
 * for exit and closed pipes; timed.
 */
function timed(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, input?: string): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const stdin = input === undefined ? 'ignore' : 'pipe';
    const child = spawn(file, args, { cwd, env, stdio: [stdin, 'pipe', 'pipe'], detached: true });
    if (input !== undefined) child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone
      }
    };
    const timer = setTimeout(killGroup, PROCESS_TIMEOUT_MS);
    let exitMs = 0;
    child.on('exit', () => (exitMs = performance.now() - t0));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      const elapsed = performance.now() - t0;
      clearTimeout(timer);
      killGroup(); // whatever the process left in its group
      resolve({ code, stdout, stderr, ms: elapsed, exitMs });
    });
  });
}

function jsonLines(stdout: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // not JSON
    }
  }
  return out;
}

/** The session / thread id a CLI output line names (claude: session_id, codex: thread_id). */
function sessionIdOf(json: Record<string, unknown>): string | undefined {
  const id = json.thread_id ?? json.session_id;
  return typeof id === 'string' ? id : undefined;
}

function addId(ids: Map<string, string[]>, cli: string, id: string | undefined): void {
  if (id === undefined) return;
  const list = ids.get(cli) ?? [];
  if (!list.includes(id)) list.push(id);
  ids.set(cli, list);
}

/** Session ids per CLI in the order they first appeared in agent-collab's debug.log (`<ISO> [role/cli] line`). */
function sessionIdsInDebugLog(file: string): Map<string, string[]> {
  const ids = new Map<string, string[]>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^\S+ \[\w+\/(\w+)\] (\{.*)$/.exec(line);
    if (!m?.[1] || !m[2]) continue;
    for (const json of jsonLines(m[2])) addId(ids, m[1], sessionIdOf(json));
  }
  return ids;
}

/**
 * One reply per model request, in order: the same for agent-collab's run and for the bare replay. `latencyMs`
 * makes the server wait before each reply, like a model that takes time to answer (0 = instant).
 */
function script(server: LlmServer, latencyMs: number): void {
  const d = { delayMs: latencyMs };
  server.openai.push(
    reply.text(plan('PLAN-V1'), d),
    reply.text(plan('PLAN-V2'), d),
    reply.applyPatch('*** Begin Patch\n*** Add File: a.txt\n+A\n*** End Patch\n', d),
    reply.text('Created a.txt.\nSummary: add a.txt', d),
    reply.execCommand('printf "B\\n" > b.txt', d),
    reply.text('Created b.txt.\nSummary: add b.txt', d),
  );
  server.anthropic.push(
    reply.text('[CHANGES_REQUIRED]\n\n1. Say which text goes into each file.', d),
    reply.text('[APPROVED]\n\nLooks good.', d),
  );
}

interface World {
  server: LlmServer;
  env: CliEnv;
  repo: string;
  logDir: string;
  real: Record<string, string>;
  wrappers: Record<string, string>;
  /** Wait before each model reply (ms). */
  latencyMs: number;
}

/**
 * Empties HOME, TMPDIR, the call log and the repo, and makes them again at the same paths (the argv name them);
 * agent-collab's config runs `clis` (the recording wrappers, or the real CLIs).
 */
function reset(w: World, clis: Record<string, string>): void {
  for (const dir of [w.env.home, w.env.tmpDir, w.repo, w.logDir]) rmSync(dir, { recursive: true, force: true });
  const xdg = ['XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME'].map((k) => w.env.env[k] ?? '');
  for (const dir of [w.env.home, w.env.codexHome, w.env.tmpDir, w.logDir, ...xdg]) mkdirSync(dir, { recursive: true });
  w.env.writeCodexConfig(w.server.url);
  w.env.makeRepo(path.basename(w.repo));
  writeAgentCollabConfig(w.repo, { claude: clis.claude!, codex: clis.codex! });
}

function modelRequests(server: LlmServer): number {
  return server.openai.requests.length + server.anthropic.requests.length;
}

function checkScriptUsed(server: LlmServer, what: string): void {
  const left = server.openai.pending + server.anthropic.pending;
  if (left > 0) throw new Error(`${what}: ${left} scripted repl(ies) were not asked for`);
}

/** One agent-collab run: its wall time and how long each CLI it started ran (spawn to exit, from its debug.log). */
interface LoopRun {
  ms: number;
  cli: CliRun[];
  requests: number;
}

/** The run that recorded the invocations (through the wrapper): what the bare side replays. */
interface Recording {
  calls: Invocation[];
  sessionIds: Map<string, string[]>;
  requests: number;
}

/** One CLI run inside agent-collab: when it started (epoch ms, from debug.log's timestamp) and how long it ran. */
export interface CliRun {
  startMs: number;
  ms: number;
}

/** Each CLI run, in start order, from debug.log's `[<role>/<cli> process]` lines (written by agent-collab). */
export function cliRunsInDebugLog(text: string): CliRun[] {
  const order: Array<{ pid: string; startMs: number }> = [];
  const ms = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m =
      /^(\S+) \[\w+\/\w+ process\] (?:started \S+ \(pid (\d+)\)|\S+ \(pid (\d+)\) exited with .* after ([\d.]+) ms)$/.exec(
        line,
      );
    if (m?.[2]) order.push({ pid: m[2], startMs: Date.parse(m[1]!) });
    else if (m?.[3] && m[4]) ms.set(m[3], Number(m[4]));
  }
  return order.map(({ pid, startMs }) => ({ startMs, ms: ms.get(pid) ?? NaN }));
}

/** How long at least one CLI was running: a CLI still exiting while the next one starts counts once. */
export function timeWithACliRunning(runs: readonly CliRun[]): number {
  let total = 0;
  let end = -Infinity;
  for (const r of [...runs].sort((a, b) => a.startMs - b.startMs)) {
    const stop = r.startMs + r.ms;
    if (stop <= end) continue;
    total += stop - Math.max(r.startMs, end);
    end = stop;
  }
  return total;
}

function debugLogOf(w: World): string {
  return path.join(w.repo, '.agent-collab', 'debug.log');
}

/** One measured run: agent-collab with `clis` as its CLIs. */
async function runAgentCollab(w: World, clis: Record<string, string>): Promise<LoopRun> {
  reset(w, clis);
  script(w.server, w.latencyMs);
  const before = modelRequests(w.server);
  const r = await timed(BIN, ['run', '--goal', GOAL, '--auto', '--auto-approve', '--json'], w.repo, w.env.env);
  const done = jsonLines(r.stdout).find((e) => e.event === 'done');
  if (r.code !== 0 || done?.phase !== 'DONE') {
    throw new Error(
      `agent-collab run exited ${r.code} without reaching DONE: ${(r.stderr.trim() || r.stdout.trim()).split('\n').slice(-3).join(' | ')}`,
    );
  }
  checkScriptUsed(w.server, 'agent-collab run');
  const cli = cliRunsInDebugLog(readFileSync(debugLogOf(w), 'utf8'));
  if (cli.length === 0 || cli.some((c) => !Number.isFinite(c.ms) || !Number.isFinite(c.startMs)))
    throw new Error(`agent-collab's debug.log does not tell how long each CLI ran (${debugLogOf(w)})`);
  return { ms: r.ms, cli, requests: modelRequests(w.server) - before };
}

/** A run through the recording wrappers: the invocations the bare side replays. */
async function record(w: World): Promise<Recording> {
  const run = await runAgentCollab(w, w.wrappers);
  const calls = readInvocations(w.logDir, w.real);
  return { calls, sessionIds: sessionIdsInDebugLog(debugLogOf(w)), requests: run.requests };
}

/**
 * The argv without agent-collab's command hook (codex: `-c hooks.…` + `--dangerously-bypass-hook-trust`; claude:
 * `--settings {"hooks":…}`): the hook is agent-collab's own machinery, so its cost belongs to agent-collab's side.
 */
export function withoutHook(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1] ?? '';
    if (a === '--dangerously-bypass-hook-trust') continue;
    if (a === '-c' && next.startsWith('hooks.')) {
      i++;
      continue;
    }
    if (a === '--settings' && next.startsWith('{') && next.includes('"hooks"')) {
      i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** Replays the recorded calls bare (without agent-collab's hook); returns each one's wall time. */
async function runBare(w: World, loop: Recording): Promise<number[]> {
  reset(w, w.real);
  script(w.server, w.latencyMs);
  const before = modelRequests(w.server);
  const created = new Map<string, string[]>();
  const times: number[] = [];
  for (const [i, call] of loop.calls.entries()) {
    const recorded = loop.sessionIds.get(call.cli) ?? [];
    const args = withoutHook(call.args).map((a) => {
      const k = recorded.indexOf(a);
      if (k < 0) return a;
      const id = created.get(call.cli)?.[k];
      if (id === undefined)
        throw new Error(`bare replay: invocation ${i + 1} (${call.cli}) resumes a session the replay has not created`);
      return id;
    });
    const r = await timed(call.file, args, call.cwd, call.env, call.input);
    if (r.code !== 0)
      throw new Error(
        `bare ${call.cli} (invocation ${i + 1}) exited ${r.code}: ${r.stderr.trim().split('\n').pop() ?? ''}`,
      );
    for (const json of jsonLines(r.stdout)) addId(created, call.cli, sessionIdOf(json));
    times.push(r.exitMs); // the leader's exit: what the wrapper times inside agent-collab's run
  }
  checkScriptUsed(w.server, 'bare replay');
  const requests = modelRequests(w.server) - before;
  if (requests !== loop.requests)
    throw new Error(`bare replay made ${requests} model requests, agent-collab's run ${loop.requests}`);
  return times;
}

export interface RealCliOptions {
  /** Measured pairs with instant model replies (information only), after one warm-up pair that records the calls. */
  instantPairs: number;
  /** Measured pairs with `latencyMs` per model reply: the goal. */
  slowPairs: number;
  latencyMs: number;
}

export async function realCliLines(opts: RealCliOptions): Promise<string[]> {
  if (!existsSync(CLI)) return [goal(`real-CLI loop: ${CLI} is missing (run \`npm run build\`)`, false)];
  const clis = await installE2eClis();
  if (!clis.ok)
    return [
      goal(
        `real-CLI loop: the real CLIs are not installed (${clis.reason}; \`node scripts/install-e2e-clis.mjs\`)`,
        false,
      ),
    ];
  const server = await startLlmServer();
  const env = makeCliEnv({ serverUrl: server.url, binDir: clis.binDir, prefix: 'ac-bench-cli-' });
  try {
    const binDir = path.join(env.root, 'bin');
    // Under TMPDIR: the one place outside the repo a CLI that agent-collab runs boxed (codex) may write to.
    const logDir = path.join(env.tmpDir, 'calls');
    mkdirSync(binDir, { recursive: true });
    const real = { codex: clis.codex, claude: clis.claude };
    // the wrappers log into logDir; they live outside it so that reset() keeps them
    const wrappers = {
      codex: writeRecorder(binDir, logDir, 'codex', clis.codex),
      claude: writeRecorder(binDir, logDir, 'claude', clis.claude),
    };
    const w: World = { server, env, repo: path.join(env.root, 'repo'), logDir, real, wrappers, latencyMs: 0 };
    const recorded = await record(w);
    await runBare(w, recorded); // with record(): the warm-up pair
    const instant = await measurePairs(w, opts.instantPairs, recorded);
    // the same loop makes the same calls whatever the server's latency
    const slow = await measurePairs({ ...w, latencyMs: opts.latencyMs }, opts.slowPairs, recorded);
    const hooked = recorded.calls.filter((c) => withoutHook(c.args).length !== c.args.length).length;
    return [
      `real-CLI loop: codex plans, claude asks for changes then approves, codex executes 2 steps (each committed); ${recorded.calls.length} CLI invocations (${hooked} with agent-collab's command hook, replayed bare without it); 1 warm-up pair, then pairs alternating which side goes first`,
      ...instant.lines,
      `real-CLI loop, instant model replies: agent-collab/bare ${instant.ratio.toFixed(3)}× (median of ${opts.instantPairs} pairs; medians agent-collab ${ms(instant.ac)} ms, bare CLIs ${ms(instant.bare)} ms; information)`,
      ...slow.lines,
      goal(
        `real-CLI loop, ${opts.latencyMs / 1000} s per model reply: agent-collab/bare ${slow.ratio.toFixed(3)}× (median of ${opts.slowPairs} pairs; medians agent-collab ${ms(slow.ac)} ms, bare CLIs ${ms(slow.bare)} ms; goal ≤ ${GOAL_RATIO.toFixed(2)}×)`,
        slow.ratio <= GOAL_RATIO,
      ),
    ];
  } finally {
    await server.close();
    env.cleanup();
  }
}

interface Pair {
  ac: LoopRun;
  bare: number[];
}

/** `codex exec`, `codex exec resume`, `claude -p`, `claude -p --resume`: what kind of invocation it was. */
function kindOf(call: Invocation): string {
  if (call.cli === 'codex') return call.args[1] === 'resume' ? 'codex exec resume' : 'codex exec';
  return call.args.includes('--resume') ? 'claude -p --resume' : 'claude -p';
}

/**
 * `runs` measured pairs, alternating which side goes first: a table of them, the median of the pairs' ratios (a pair's
 * two sides run back to back, so slow drifts in the machine's load mostly cancel out) and the medians of each side.
 */
async function measurePairs(
  w: World,
  runs: number,
  recorded: Recording,
): Promise<{ lines: string[]; ratio: number; ac: number; bare: number }> {
  const pairs: Pair[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      const ac = checkSame(await runAgentCollab(w, w.real), recorded);
      pairs.push({ ac, bare: await runBare(w, recorded) });
    } else {
      const bare = await runBare(w, recorded);
      pairs.push({ ac: checkSame(await runAgentCollab(w, w.real), recorded), bare });
    }
  }
  const inside = (p: Pair): number => timeWithACliRunning(p.ac.cli);
  const ac = median(pairs.map((p) => p.ac.ms));
  const own = median(pairs.map((p) => p.ac.ms - inside(p)));
  const delay = w.latencyMs > 0 ? `${w.latencyMs / 1000} s per model reply` : 'instant model replies';
  const lines = [
    `  ${delay}: pairs ("a CLI running" = spawn to exit of each CLI, as agent-collab's debug.log records; "its own" = the rest)`,
    ...table(
      ['pair', 'first', 'agent-collab ms', 'a CLI running ms', 'its own ms', 'bare CLIs ms', 'agent-collab/bare'],
      pairs.map((p, i) => [
        String(i + 1),
        i % 2 === 0 ? 'agent-collab' : 'bare',
        ms(p.ac.ms),
        ms(inside(p)),
        ms(p.ac.ms - inside(p)),
        ms(sum(p.bare)),
        `${(p.ac.ms / sum(p.bare)).toFixed(3)}×`,
      ]),
    ),
    ...table(
      ['invocation', 'median ms inside agent-collab', 'median ms bare'],
      recorded.calls.map((c, k) => [
        `${k + 1}. ${kindOf(c)}`,
        ms(median(pairs.map((p) => p.ac.cli[k]?.ms ?? NaN))),
        ms(median(pairs.map((p) => p.bare[k] ?? NaN))),
      ]),
    ),
    `  agent-collab's own time: median ${ms(own)} ms = ${((own / ac) * 100).toFixed(1)}% of its wall time`,
  ];
  return {
    lines,
    ratio: median(pairs.map((p) => p.ac.ms / sum(p.bare))),
    ac,
    bare: median(pairs.map((p) => sum(p.bare))),
  };
}

/** A measured run must make the same calls as the recorded one (the bare side replays those). */
function checkSame(run: LoopRun, recorded: Recording): LoopRun {
  if (run.cli.length !== recorded.calls.length || run.requests !== recorded.requests) {
    throw new Error(
      `agent-collab started ${run.cli.length} CLI(s) with ${run.requests} model requests; the recorded run ${recorded.calls.length} with ${recorded.requests}`,
    );
  }
  return run;
}
