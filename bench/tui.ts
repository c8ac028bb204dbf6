// The TUI, measured on the product a person runs: the built CLI (`node dist/cli.js`: the launcher before the
// refactor, the program itself after) in a real pseudo-terminal (util-linux `script`, 100×30), both roles on the
// fake agent. The bench types at it like a person: a goal, Ctrl+G, Enter; the planner's write_plan round then
// streams LINES lines (500 per event-loop turn, like pipe chunks) through the real Engine, view model and App.
//   first frame  = spawn → the first frame with the tab bar on the terminal, next to `node -e 0` (alternated);
//                  the pty wrapper (`script`, sh, stty) counts on agent-collab's side
//   key → frame  = while the stream runs, a key switches tabs every 40 ms; the time until the terminal shows it
//   peak RSS     = the CLI process's VmHWM (/proc/<pid>/status) once the stream is done; "before" = its RSS when
//                  the stream is about to start
// Linux only (/proc, `script`); needs `npm run build` first.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { goal, median, ms, percentile } from './stats.js';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');
const FIRST_FRAMES = 7;
const LINES = 200_000;
const LINES_PER_CHUNK = 500;
const KEY_EVERY_MS = 40;
const KEY_LOST_MS = 1000;
const STEP_TIMEOUT_MS = 120_000;
const COLUMNS = 100;
const ROWS = 30;
const GOALS = { firstFrameRatio: 3, keyP95Ms: 50, rssMb: 200 };

export interface TuiResult {
  /** Spawn → the first frame, per fresh process. */
  firstFrameMs: number[];
  /** Spawn → exit of `node -e 0`: what Node itself costs before any of agent-collab runs. */
  nodeStartMs: number[];
  streamMs: number;
  keyMs: number[];
  /** Keys whose frame never came (counted as failures). */
  keysLost: number;
  peakRssMb: number;
  /** The CLI's RSS right before the stream (modules loaded, App drawn, a refine round done). */
  rssBeforeMb: number;
}

/** The CLI in a pseudo-terminal: what it writes (colours stripped), keys to type, its pid and memory from /proc. */
class Terminal {
  private out = '';
  private readonly child: ChildProcess;
  private readonly exited: Promise<number | null>;
  private waiter: (() => void) | null = null;
  private readonly watched = new Map<string, number | null>();

  constructor(cwd: string, env: NodeJS.ProcessEnv) {
    const flags = process.env.TUI_BENCH_NODE_FLAGS ?? ''; // diagnostics, e.g. --trace-gc or --import a sampler
    const cmd = `stty rows ${ROWS} cols ${COLUMNS} && exec ${JSON.stringify(process.execPath)} ${flags} ${JSON.stringify(CLI)}`;
    const typescript = process.env.TUI_BENCH_TYPESCRIPT ?? '/dev/null'; // diagnostics: a file to keep the raw output in
    this.child = spawn('script', ['-qfec', cmd, typescript], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout!.setEncoding('utf8');
    let raw = '';
    this.child.stdout!.on('data', (d: string) => {
      // An escape sequence cut at the chunk's end waits for the next chunk.
      raw += d;
      const cut = raw.lastIndexOf('\x1b');
      // eslint-disable-next-line no-control-regex
      const whole = cut >= 0 && !/^\x1b\[[0-9;?]*[A-Za-z]/.test(raw.slice(cut)) ? raw.slice(0, cut) : raw;
      raw = raw.slice(whole.length);
      const before = this.out.length;
      this.out += plain(whole);
      const now = performance.now();
      for (const [text, at] of this.watched)
        if (at === null && this.out.indexOf(text, Math.max(0, before - text.length)) >= 0) this.watched.set(text, now);
      this.waiter?.();
    });
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  mark(): number {
    return this.out.length;
  }

  indexOf(text: string, from: number): number {
    return this.out.indexOf(text, from);
  }

  /** Drops what was read so far (a 200k-line stream redraws the screen thousands of times). */
  forget(): void {
    this.out = '';
  }

  /** From now on notes when `text` is first shown; `seen` tells when (null: not yet). */
  watch(text: string): void {
    this.watched.set(text, null);
  }

  seen(text: string): number | null {
    return this.watched.get(text) ?? null;
  }

  type(keys: string): void {
    this.child.stdin!.write(keys);
  }

  /** Resolves at the first output after `from` that contains `text`; the time it was seen. */
  async waitFor(text: string, from: number, timeoutMs = STEP_TIMEOUT_MS): Promise<number> {
    const end = performance.now() + timeoutMs;
    for (;;) {
      if (this.out.indexOf(text, from) >= 0) return performance.now();
      if (performance.now() > end)
        throw new Error(
          `the TUI did not show ${JSON.stringify(text)} within ${timeoutMs} ms; it last showed: ${JSON.stringify(this.out.slice(-600).replace(/\s+/g, ' '))}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiter = () => {
          clearTimeout(timer);
          this.waiter = null;
          resolve();
        };
      });
    }
  }

  /** Asks the CLI to quit (Ctrl+C), kills it after 10 s. */
  async quit(): Promise<number | null> {
    this.type('\x03');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Terminal output without its colours and cursor moves (a line break for each cursor move). */
function plain(ansi: string): string {
  // eslint-disable-next-line no-control-regex
  return ansi.replace(/\x1b\[[0-9;?]*m/g, '').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '\n');
}

/** A field of /proc/<pid>/status in MB (VmRSS, VmHWM). */
function procMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`/proc/${pid}/status has no ${field}`);
  return (Number(m[1]) * 1024) / 1e6;
}

interface Sandbox {
  dir: string;
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

/** A scratch git repo whose config runs both roles on the fake agent; the planner's write_plan streams LINES lines. */
async function sandbox(): Promise<Sandbox> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'agent-collab-bench-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git(
    '-c',
    'user.name=bench',
    '-c',
    'user.email=bench@agent-collab.invalid',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'initial commit',
  );
  const home = await mkdtemp(path.join(os.tmpdir(), 'agent-collab-bench-home-'));
  const script = path.join(home, 'stream.json');
  await writeFile(
    script,
    JSON.stringify({
      rules: [{ when: { kind: 'write_plan' }, do: { stream: { lines: LINES, perChunk: LINES_PER_CHUNK } } }],
    }),
  );
  await mkdir(path.join(dir, '.agent-collab'), { recursive: true });
  await writeFile(
    path.join(dir, '.agent-collab', 'config.toml'),
    `[roles]\nplanner = "fake"\nreviewer = "fake"\n[fake]\nscript = ${JSON.stringify(script)}\n`,
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    TERM: 'xterm-256color',
  };
  delete env.NODE_ENV;
  delete env.NODE_OPTIONS; // tsx's loader, when the bench runs under it
  return {
    dir,
    env,
    cleanup: async () => {
      await rm(dir, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

const TAB_MARK = { 1: '[1:Conversation]', 2: '[2:Plan]' } as const;

async function firstFrame(box: Sandbox): Promise<number> {
  await rm(path.join(box.dir, '.agent-collab', 'state.json'), { force: true });
  const t0 = performance.now();
  const term = new Terminal(box.dir, box.env);
  const at = await term.waitFor(TAB_MARK[1], 0, 20_000);
  await term.waitFor('waiting for your goal', 0, 20_000);
  await term.quit();
  return at - t0;
}

function nodeStart(): number {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  return performance.now() - t0;
}

async function streamRun(
  box: Sandbox,
): Promise<Pick<TuiResult, 'streamMs' | 'keyMs' | 'keysLost' | 'peakRssMb' | 'rssBeforeMb'>> {
  await rm(path.join(box.dir, '.agent-collab', 'state.json'), { force: true });
  const term = new Terminal(box.dir, box.env);
  try {
    await term.waitFor('waiting for your goal', 0);
    const pid = Number(readFileSync(path.join(box.dir, '.agent-collab', 'agent-collab.pid'), 'utf8').trim());
    let from = term.mark();
    term.type('bench the TUI');
    await term.waitFor('goal › bench the TUI', from);
    from = term.mark();
    term.type('\r');
    await term.waitFor('## Refined goal', from);
    // The goal box, active again after the answer (the hint it shows only then), in a frame after the answer.
    await term.waitFor('Ctrl+G or /ready', term.indexOf('## Refined goal', from));
    from = term.mark();
    term.type('\x07'); // Ctrl+G: the goal is ready
    await term.waitFor('Next: planner — writing the plan', from);
    await new Promise((r) => setTimeout(r, 200)); // let the process settle
    const rssBeforeMb = procMb(pid, 'VmRSS');

    term.forget();
    const reviewNext = 'Next: reviewer — reviewing the plan';
    term.watch(reviewNext);
    const t0 = performance.now();
    term.type('\r'); // Enter: let the round through
    await term.waitFor(': compiling src/module-', 0);
    // Keys while the stream runs: 2 and 1 in turn, each after the previous one's frame (or KEY_LOST_MS).
    const keyMs: number[] = [];
    let keysLost = 0;
    let tab: 1 | 2 = 1;
    let streaming = true;
    const keys = (async () => {
      while (streaming) {
        tab = tab === 1 ? 2 : 1;
        term.forget();
        const sent = performance.now();
        term.type(String(tab));
        try {
          keyMs.push((await term.waitFor(TAB_MARK[tab], 0, KEY_LOST_MS)) - sent);
        } catch {
          if (streaming) keysLost++;
        }
        const next = sent + KEY_EVERY_MS - performance.now();
        if (next > 0) await new Promise((r) => setTimeout(r, next));
      }
    })();
    // The round is over when the engine waits for the next go.
    let end: number | null;
    while ((end = term.seen(reviewNext)) === null) {
      if (performance.now() - t0 > STEP_TIMEOUT_MS * 2)
        throw new Error('the 200k-line stream did not finish within 4 minutes');
      await new Promise((r) => setTimeout(r, 5));
    }
    const streamMs = end - t0;
    streaming = false;
    await keys;
    const peakRssMb = procMb(pid, 'VmHWM');
    return { streamMs, keyMs, keysLost, peakRssMb, rssBeforeMb };
  } finally {
    await term.quit();
  }
}

/** Runs the measurements on the built CLI; throws when dist/ is missing or the TUI does not get through. */
export async function measureTui(): Promise<TuiResult> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  if (spawnSync('script', ['--version']).status !== 0)
    throw new Error('the TUI bench needs util-linux `script` (a pseudo-terminal)');
  const box = await sandbox();
  try {
    const firstFrameMs: number[] = [];
    const nodeStartMs: number[] = [];
    for (let i = 0; i < FIRST_FRAMES; i++) {
      if (i % 2 === 0) nodeStartMs.push(nodeStart());
      firstFrameMs.push(await firstFrame(box));
      if (i % 2 === 1) nodeStartMs.push(nodeStart());
    }
    return { firstFrameMs, nodeStartMs, ...(await streamRun(box)) };
  } finally {
    await box.cleanup();
  }
}

export async function tuiBenchLines(): Promise<string[]> {
  const t = await measureTui();
  const frame = median(t.firstFrameMs);
  const node = median(t.nodeStartMs);
  const ratio = frame / node;
  const p95 = percentile(t.keyMs, 95);
  const keysOk = t.keyMs.length > 0 && t.keysLost === 0 && p95 < GOALS.keyP95Ms;
  return [
    goal(
      `TUI first frame (node dist/cli.js in a pty, spawn → tab bar): ${ms(frame)} ms / node -e 0 ${ms(node)} ms = ${ratio.toFixed(2)}× (medians of ${FIRST_FRAMES}, alternated; goal ≤ ${GOALS.firstFrameRatio}×)`,
      ratio <= GOALS.firstFrameRatio,
    ),
    `TUI ${LINES} lines streamed from the fake agent (Engine, view model, App, pty): ${(t.streamMs / 1000).toFixed(1)} s (${Math.round(LINES / (t.streamMs / 1000))} lines/s; information)`,
    goal(
      `TUI key → frame while streaming: p95 ${ms(p95)} ms, median ${ms(median(t.keyMs))} ms, max ${ms(Math.max(...t.keyMs))} ms over ${t.keyMs.length} key(s)${t.keysLost ? `, ${t.keysLost} lost` : ''} (goal p95 < ${GOALS.keyP95Ms} ms)`,
      keysOk,
    ),
    goal(
      `TUI peak RSS of the CLI process: ${Math.round(t.peakRssMb)} MB (${Math.round(t.rssBeforeMb)} MB right before the stream; goal < ${GOALS.rssMb} MB)`,
      t.peakRssMb < GOALS.rssMb,
    ),
  ];
}
