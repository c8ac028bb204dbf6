// `npm run bench`: agent-collab's own overhead per agent round, measured on instant fake agents.
//
// Each run drives a full workflow through the real Engine (openSession → engineFor, auto mode, auto-approve)
// in a fresh temp git repo: the reviewer asks for changes in review iterations 1..K-1 and approves at K, so the
// review phase has 2K agent rounds (write_plan, K reviews, K-1 responds); then S steps are executed and committed.
//
//   review window  = from entering WRITE_PLAN (the first round is launched right after) to entering APPROVED
//                    (the last verdict is applied, its files are written and state.json is saved)
//   bare agent     = the same turns replayed straight into fresh FakeAgents and drained, no engine around them
//   overhead/round = (review window − bare agent time) / rounds
//
// Options: --runs N (measured runs, default 7), --warmup N (default 1), --iterations K (default 20),
//          --steps S (default 5), --check (exit 1 when the goal is missed).
import os from 'node:os';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { replayBare } from './bare.js';
import { realCliLines } from './real-cli.js';
import { TIMED_OPS, type TimedOp } from './file-ops.js';
import { startupLines, measureStartup } from './startup.js';
import { median, ms, percentile, sum, table } from './stats.js';
import { tuiBenchLines } from './tui.js';
import { REVIEW_KINDS, runWorkflowOnce, type WorkflowRun } from './workflow.js';

const GOAL_MS = 15;

interface RunResult {
  rounds: number;
  engineMs: number;
  bareMs: number;
  overheadPerRound: number;
  /** Each round's wall time minus its bare agent time. */
  roundOverheads: number[];
  stepMs: number[];
  perStep: number;
  /** File operations of the engine inside the review window: count and total ms per operation. */
  ops: Map<TimedOp, { count: number; ms: number }>;
}

function positiveInt(text: string | undefined, fallback: number, name: string, min = 1): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min} (got "${text}")`);
  return n;
}

function phaseTime(run: WorkflowRun, phase: Parameters<WorkflowRun['phaseAt']['get']>[0]): number {
  const at = run.phaseAt.get(phase);
  if (at === undefined) throw new Error(`the run never entered ${phase}`);
  return at;
}

/** Splits [start, end] at the given launch times: one span per launch. */
function spans(start: number, launchTimes: number[], end: number): number[] {
  const bounds = [start, ...launchTimes.slice(1), end];
  return launchTimes.map((_, i) => (bounds[i + 1] ?? end) - (bounds[i] ?? start));
}

async function measure(approveAt: number, steps: number): Promise<RunResult> {
  const run = await runWorkflowOnce({ approveAt, steps });
  const review = run.launches.filter((l) => REVIEW_KINDS.has(l.turn.meta.kind));
  const expected = 2 * approveAt;
  if (review.length !== expected) throw new Error(`expected ${expected} review-phase rounds, saw ${review.length}`);
  const start = phaseTime(run, 'WRITE_PLAN');
  const end = phaseTime(run, 'APPROVED');
  const bare = await replayBare(review, run.scripts);
  const engineMs = end - start;
  const bareMs = sum(bare);
  const roundOverheads = spans(
    start,
    review.map((l) => l.at),
    end,
  ).map((wall, i) => wall - (bare[i] ?? 0));

  const executed = run.launches.filter((l) => l.turn.meta.kind === 'execute_step');
  if (executed.length !== steps) throw new Error(`expected ${steps} executed steps, saw ${executed.length}`);
  const execStart = phaseTime(run, 'EXECUTE');
  const execEnd = phaseTime(run, 'DONE');
  const stepMs = spans(
    execStart,
    executed.map((l) => l.at),
    execEnd,
  );

  const ops = new Map<TimedOp, { count: number; ms: number }>();
  for (const op of run.fileOps) {
    if (op.start < start || op.start > end) continue;
    const agg = ops.get(op.op) ?? { count: 0, ms: 0 };
    agg.count++;
    agg.ms += op.ms;
    ops.set(op.op, agg);
  }
  return {
    rounds: review.length,
    engineMs,
    bareMs,
    overheadPerRound: (engineMs - bareMs) / review.length,
    roundOverheads,
    stepMs,
    perStep: (execEnd - execStart) / steps,
    ops,
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      runs: { type: 'string' },
      warmup: { type: 'string' },
      iterations: { type: 'string' },
      steps: { type: 'string' },
      check: { type: 'boolean' },
    },
    strict: true,
  });
  const runs = positiveInt(values.runs, 7, 'runs');
  const warmup = positiveInt(values.warmup, 1, 'warmup', 0);
  const k = positiveInt(values.iterations, 20, 'iterations');
  const steps = positiveInt(values.steps, 5, 'steps');
  if (k > 100) throw new Error('--iterations must be ≤ 100 (workflow.max_iterations is capped at 100)');

  const began = performance.now();
  const say = (line = ''): void => void process.stdout.write(`${line}\n`);
  say('agent-collab bench: engine overhead per agent round (instant fake agents; real files, state.json and git)');
  say(`setup: reviewer approves at iteration ${k} → ${2 * k} review-phase rounds per run (1 write_plan + ${k} review + ${k - 1} respond), then ${steps} steps; ${warmup} warm-up + ${runs} measured run(s)`);
  say(`node ${process.version}, ${process.platform}/${process.arch}, ${os.cpus().length} CPU(s), load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  say();

  for (let i = 0; i < warmup; i++) await measure(k, steps);
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) results.push(await measure(k, steps));

  const rows = results.map((r, i) => [
    String(i + 1),
    String(r.rounds),
    ms(r.engineMs / r.rounds),
    ms(r.bareMs / r.rounds),
    ms(r.overheadPerRound),
    `${(r.engineMs / Math.max(r.bareMs, 1e-6)).toFixed(1)}x`,
    ms(r.perStep),
  ]);
  const header = ['run', 'rounds', 'engine ms/round', 'bare agent ms/round', 'overhead ms/round', 'engine/bare', 'step ms (incl. git commit)'];
  for (const line of table(header, rows)) say(line);
  say();

  const perRun = results.map((r) => r.overheadPerRound);
  const med = median(perRun);
  const p95 = percentile(perRun, 95);
  const pass = med < GOAL_MS;
  say(`engine overhead per round: median ${ms(med)} ms, p95 ${ms(p95)} ms over ${runs} run(s) (goal < ${GOAL_MS} ms) ${pass ? 'PASS' : 'FAIL'}`);

  const all = results.flatMap((r) => r.roundOverheads);
  say(`single rounds (${all.length}): median ${ms(median(all))} ms, p95 ${ms(percentile(all, 95))} ms, max ${ms(Math.max(...all))} ms`);

  const engineMed = median(results.map((r) => r.engineMs / r.rounds));
  const bareMed = median(results.map((r) => r.bareMs / r.rounds));
  say(`engine vs bare agent per round: ${ms(engineMed)} ms vs ${ms(bareMed)} ms (median; ${(engineMed / Math.max(bareMed, 1e-6)).toFixed(1)}x)`);

  const totalRounds = sum(results.map((r) => r.rounds));
  const parts: string[] = [];
  let opsMs = 0;
  for (const op of TIMED_OPS) {
    let count = 0;
    let total = 0;
    for (const r of results) {
      const agg = r.ops.get(op);
      count += agg?.count ?? 0;
      total += agg?.ms ?? 0;
    }
    opsMs += total;
    if (count > 0) parts.push(`${op} ${(count / totalRounds).toFixed(1)}×${ms(total / count)}`);
  }
  const engineMean = sum(results.map((r) => r.engineMs)) / totalRounds;
  say(`engine file I/O per round (mean): ${ms(opsMs / totalRounds)} ms of ${ms(engineMean)} ms wall (count × mean ms: ${parts.join(', ')})`);

  const perStep = results.map((r) => r.perStep);
  const allSteps = results.flatMap((r) => r.stepMs);
  say(
    `step execution per step (agent writes a file + git commit, informational): median ${ms(median(perStep))} ms, p95 ${ms(percentile(perStep, 95))} ms over ${runs} run(s); single steps median ${ms(median(allSteps))} ms, max ${ms(Math.max(...allSteps))} ms`,
  );
  for (const l of startupLines(measureStartup(os.tmpdir()))) say(l);
  for (const l of await tuiBenchLines()) say(l);
  // 10 pairs: single pairs vary by ±5% on a busy 2-core machine (both sides alike), so the medians need more than a
  // few; an even count lets each side go first equally often.
  for (const l of await realCliLines({ runs: 10, latencyMs: 2000 })) say(l);
  say(`bench time: ${((performance.now() - began) / 1000).toFixed(1)} s`);
  return values.check && !pass ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
