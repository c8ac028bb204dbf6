// The TUI under load, in a child process of its own (so its peak RSS is its own):
//   first frame    = render(<App>) of the real App over a real Engine → the first write to the (fake) terminal
//   200k lines     = a fake planner streams 200k lines (500 per event-loop turn, like pipe chunks) through the
//                    real Engine into the view model and the App (Ink's normal, throttled output); meanwhile a
//                    key switches tabs every 40 ms and we time key → the frame that shows it
//   peak RSS       = the child's maxRSS at the end
// Run alone: node --import tsx bench/tui.ts
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FakeAgent } from '../src/adapters/fake/fake-agent.js';
import type { Agent, AgentEvent, AgentTurn } from '../src/engine/types.js';
import { filesReader, TUI_MAX_FPS } from '../src/modes/interactive.js';
import { openSession } from '../src/modes/session.js';
import { loadUi } from '../src/ui/load-ui.js';
import { makeBenchRepo } from './repo.js';
import { median, ms, percentile } from './stats.js';

const LINES = 200_000;
const LINES_PER_TURN = 500;
const KEY_EVERY_MS = 40;
const GOALS = { firstFrameMs: 100, keyP95Ms: 50, rssMb: 200 };

interface TuiResult {
  firstFrameColdMs: number;
  firstFrameWarmMs: number[];
  streamMs: number;
  lines: number;
  keyMs: number[];
  /** Keys whose frame never came (counted as failures). */
  keysLost: number;
  peakRssMb: number;
  /** RSS right before the stream started (Node, modules, the first-frame renders). */
  rssBeforeMb: number;
  /** The largest V8 heap in use, sampled every 50 ms during the stream. */
  peakHeapMb: number;
}

/** A terminal: columns/rows, and every write timestamped. */
class FakeTerminal extends EventEmitter {
  columns = 100;
  rows = 30;
  isTTY = true;
  writes = 0;
  onWrite: ((chunk: string) => void) | null = null;
  write = (chunk: string): boolean => {
    this.writes++;
    this.onWrite?.(chunk);
    return true;
  };
}

class FakeKeyboard extends EventEmitter {
  isTTY = true;
  private queue: string[] = [];
  press(data: string): void {
    this.queue.push(data);
    this.emit('readable');
  }
  read(): string | null {
    return this.queue.shift() ?? null;
  }
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

/** The planner's write_plan turn streams LINES lines, a pipe chunk per event-loop turn, then answers. */
class StreamingPlanner implements Agent {
  readonly name = 'streaming-planner';
  streamed = 0;
  private stopped = false;
  constructor(private readonly fallback: Agent) {}

  start(turn: AgentTurn): AsyncIterable<AgentEvent> {
    return turn.meta.kind === 'write_plan' ? this.stream() : this.fallback.start(turn);
  }

  resume(sessionId: string, turn: AgentTurn): AsyncIterable<AgentEvent> {
    return turn.meta.kind === 'write_plan' ? this.stream() : this.fallback.resume(sessionId, turn);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.fallback.stop();
  }

  private async *stream(): AsyncGenerator<AgentEvent> {
    this.stopped = false;
    yield { type: 'session', sessionId: 'streaming-1' };
    while (this.streamed < LINES && !this.stopped) {
      await new Promise((r) => setImmediate(r));
      const end = Math.min(LINES, this.streamed + LINES_PER_TURN);
      for (; this.streamed < end; this.streamed++) yield { type: 'text', text: `line ${this.streamed}: compiling src/module-${this.streamed % 97}.ts … ok` };
    }
    const plan = '# Task: bench\n\n## Steps\n1. [ ] Do it\n';
    yield { type: 'text', text: plan };
    yield { type: 'done', sessionId: 'streaming-1', text: plan };
  }
}

/** `withApp` false: the same stream through the Engine only (no subscriber), for comparison. */
async function measureInChild(withApp: boolean): Promise<TuiResult> {
  // The App as the CLI loads it: React's production build, Ink drawing at TUI_MAX_FPS.
  const { render, createElement, App } = await loadUi();
  const repo = await makeBenchRepo();
  const home = await mkdtemp(path.join(os.tmpdir(), 'agent-collab-bench-home-'));
  process.env.XDG_CONFIG_HOME = path.join(home, '.config');
  const planner = new StreamingPlanner(new FakeAgent('fake-planner', { rules: [] }));
  const agents = { planner, reviewer: new FakeAgent('fake-reviewer', { rules: [] }) };
  const session = await openSession({ cwd: repo.dir, homeDir: home, agents });
  try {
    const files = filesReader(session);

    // First frame: a cold render (the first in this process), then warm ones.
    const firstFrame = async (): Promise<number> => {
      const engine = session.engineFor(session.newRun('bench the TUI', 'manual'));
      const term = new FakeTerminal();
      let at = 0;
      term.onWrite = () => {
        at ||= performance.now();
      };
      const t0 = performance.now();
      const instance = render(createElement(App, { engine, files, tickMs: 0 }), { stdout: term as unknown as NodeJS.WriteStream, stdin: new FakeKeyboard() as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false, maxFps: TUI_MAX_FPS });
      while (!at) await new Promise((r) => setTimeout(r, 1));
      instance.unmount();
      await engine.close();
      return at - t0;
    };
    const firstFrameColdMs = await firstFrame();
    const firstFrameWarmMs: number[] = [];
    for (let i = 0; i < 10; i++) firstFrameWarmMs.push(await firstFrame());

    // The stream.
    // Manual mode: after the streamed round the engine waits (for a go) instead of running on.
    const engine = session.engineFor(session.newRun('bench the TUI', 'manual'));
    const term = new FakeTerminal();
    const keys = new FakeKeyboard();
    let waiting: { marker: string; t0: number } | null = null;
    const keyMs: number[] = [];
    let keysLost = 0;
    term.onWrite = (chunk) => {
      if (waiting && chunk.includes(waiting.marker)) {
        keyMs.push(performance.now() - waiting.t0);
        waiting = null;
      }
    };
    const options = { stdout: term as unknown as NodeJS.WriteStream, stdin: keys as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false, maxFps: TUI_MAX_FPS };
    const instance = withApp ? render(createElement(App, { engine, files, tickMs: 1000 }), options) : { unmount: () => undefined };
    const rssBeforeMb = process.memoryUsage().rss / 1e6;
    let peakHeap = 0;
    const sampler = setInterval(() => {
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }, 50);
    await new Promise((r) => setTimeout(r, 50)); // Ink attaches to the keyboard in an effect
    const t0 = performance.now();
    await engine.dispatch({ type: 'start', goal: 'bench the TUI' });
    await engine.dispatch({ type: 'goal_ready', goal: 'bench the TUI' });
    await engine.dispatch({ type: 'go' });
    let tab = 1;
    const presser = setInterval(() => {
      if (!withApp || planner.streamed === 0 || planner.streamed >= LINES) return;
      if (waiting) {
        if (performance.now() - waiting.t0 > 1000) {
          keysLost++;
          waiting = null;
        }
        return;
      }
      tab = tab === 1 ? 2 : 1;
      waiting = { marker: tab === 1 ? '[1:Conversation]' : '[2:Plan]', t0: performance.now() };
      keys.press(String(tab));
    }, KEY_EVERY_MS);
    while (planner.streamed < LINES) await new Promise((r) => setTimeout(r, 20));
    const streamMs = performance.now() - t0;
    clearInterval(presser);
    clearInterval(sampler);
    instance.unmount();
    await engine.close();
    return { firstFrameColdMs, firstFrameWarmMs, streamMs, lines: planner.streamed, keyMs, keysLost, peakRssMb: (process.resourceUsage().maxRSS * 1024) / 1e6, rssBeforeMb, peakHeapMb: peakHeap / 1e6 };
  } finally {
    await session.close();
    await rm(repo.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

function runChild(mode: '--child' | '--engine-only'): TuiResult {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--import', 'tsx', self, mode], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 300_000 });
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  if (r.status !== 0 || !last.startsWith('{')) throw new Error(`the TUI bench failed (exit ${r.status ?? r.signal}): ${r.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  return JSON.parse(last) as TuiResult;
}

/** Runs the measurements in child processes (one with the App, one with the Engine alone) and returns the bench lines. */
export function tuiBenchLines(): string[] {
  const t = runChild('--child');
  const bare = runChild('--engine-only');
  const verdict = (ok: boolean): string => (ok ? 'PASS' : 'FAIL');
  const warm = median(t.firstFrameWarmMs);
  const p95 = percentile(t.keyMs, 95);
  const keysOk = t.keyMs.length > 0 && t.keysLost === 0 && p95 < GOALS.keyP95Ms;
  const rate = (r: TuiResult): string => `${(r.streamMs / 1000).toFixed(1)} s (${Math.round(r.lines / (r.streamMs / 1000))} lines/s)`;
  return [
    `TUI first frame (real App over a real Engine, fake terminal): cold ${ms(t.firstFrameColdMs)} ms, warm median ${ms(warm)} ms (goal < ${GOALS.firstFrameMs} ms) ${verdict(t.firstFrameColdMs < GOALS.firstFrameMs)}`,
    `TUI ${t.lines} lines streamed from a fake agent through the Engine, view model and App: ${rate(t)}; the Engine alone: ${rate(bare)}`,
    `TUI key → frame while streaming: p95 ${ms(p95)} ms, median ${ms(median(t.keyMs))} ms, max ${ms(Math.max(...t.keyMs))} ms over ${t.keyMs.length} key(s)${t.keysLost ? `, ${t.keysLost} lost` : ''} (goal p95 < ${GOALS.keyP95Ms} ms) ${verdict(keysOk)}`,
    `TUI peak RSS during the stream: ${Math.round(t.peakRssMb)} MB (${Math.round(t.rssBeforeMb)} MB before it, V8 heap peak ${Math.round(t.peakHeapMb)} MB; the Engine alone: ${Math.round(bare.peakRssMb)} MB, heap ${Math.round(bare.peakHeapMb)} MB) (goal < ${GOALS.rssMb} MB) ${verdict(t.peakRssMb < GOALS.rssMb)}`,
  ];
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
const childMode = process.argv.find((a) => a === '--child' || a === '--engine-only');
if (isMain && childMode) {
  measureInChild(childMode === '--child').then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r)}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(2);
    },
  );
} else if (isMain) {
  for (const line of tuiBenchLines()) process.stdout.write(`${line}\n`);
}
