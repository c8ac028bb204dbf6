// Peak memory of agent-collab (the built CLI) while agents print far more than it can pass on: a stand-in codex
// that prints many megabytes (many lines, or one huge line) to a `--json` reader that reads slowly. The goal: peak
// RSS < 300 MB whatever the agents print. Also used by the integration test of the same goal.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempRepo } from '../test/helpers/repo.js';

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
const MB = 1024 * 1024;
export const RSS_GOAL_BYTES = 300 * MB;

export interface LoudOutput {
  /** agent_message lines printed before the answer, per turn. */
  messages: number;
  /** Characters of each. */
  messageChars: number;
  /** Characters of one line printed on stderr (no newline until its end) before the messages, per turn. */
  stderrChars?: number;
}

/**
 * A stand-in `codex exec --json` that reads its prompt from stdin, prints `messages` messages of `messageChars`
 * each (waiting on its pipe as a real CLI does), then answers: `[APPROVED]` to a review, a one-step plan otherwise.
 */
export function writeLoudCodex(dir: string, out: LoudOutput): string {
  const file = path.join(dir, 'loud-codex');
  const script = `#!${process.execPath}
const prompt = require('node:fs').readFileSync(0, 'utf8') + process.argv.join(' '); // stdin, or argv before 0.1
const review = prompt.includes('This is review round');
const line = (o) => JSON.stringify(o) + '\\n';
const big = line({ type: 'item.completed', item: { id: 'm', type: 'agent_message', text: 'LOUD-START ' + 'x'.repeat(${out.messageChars}) + ' LOUD-END' } });
const answer = review ? '[APPROVED]\\n\\nFine.' : '# Plan\\n\\n## Steps\\n1. [ ] Create a.txt with the text A\\n';
const write = (s, to = process.stdout) => new Promise((r) => (to.write(s) ? r() : to.once('drain', r)));
(async () => {
  // one huge stderr line, in 1 MB writes (as a CLI streaming a long diagnostic), then its newline
  for (let left = ${out.stderrChars ?? 0}; left > 0; left -= ${MB}) await write('E'.repeat(Math.min(left, ${MB})), process.stderr);
  if (${out.stderrChars ?? 0} > 0) await write(' STDERR-END\\n', process.stderr);
  await write(line({ type: 'thread.started', thread_id: '00000000-0000-4000-8000-00000000000' + (review ? '2' : '1') }));
  for (let i = 0; i < ${out.messages}; i++) await write(big);
  await write(line({ type: 'item.completed', item: { id: 'a', type: 'agent_message', text: answer } }));
  await write(line({ type: 'turn.completed', usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } }));
})();
`;
  writeFileSync(file, script);
  chmodSync(file, 0o755);
  return file;
}

export interface MemoryRun {
  code: number | null;
  /** VmHWM of agent-collab's process, last read before it exited. */
  peakRssBytes: number;
  stdoutBytes: number;
  /**
   * The NDJSON events, each long string cut to its first 200 characters and `…(<length>)`, or `…(<length>, cut)`
   * when agent-collab had cut it (the test looks at their shape).
   */
  events: Array<Record<string, unknown>>;
  repo: string;
  cleanup: () => void;
}

function vmHwm(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * `agent-collab run --goal … --auto --json` in a fresh repo with both roles on the stand-in codex (sandbox off: the
 * stand-in is no real CLI to confine), its stdout read only after `startDelayMs`, then in small bursts.
 */
export function runLoud(
  out: LoudOutput,
  opts: { startDelayMs?: number; burstPauseMs?: number; cli?: string } = {},
): Promise<MemoryRun> {
  const repo = tempRepo();
  const codex = writeLoudCodex(repo.home, out);
  mkdirSync(path.join(repo.dir, '.agent-collab'), { recursive: true });
  writeFileSync(
    path.join(repo.dir, '.agent-collab', 'config.toml'),
    [
      '[roles]',
      'planner = "codex"',
      'reviewer = "codex"',
      '[agents.codex]',
      `command = ${JSON.stringify(codex)}`,
      '[safety]',
      'sandbox = "off"',
      '[test]',
      'fallback_to_agent = false',
      '',
    ].join('\n'),
  );
  return watchRun(['run', '--goal', 'say a lot', '--auto', '--json'], {
    cwd: repo.dir,
    env: { ...process.env, HOME: repo.home, XDG_CONFIG_HOME: path.join(repo.home, '.config'), NO_COLOR: '1' },
    ...opts,
  }).then((r) => ({ ...r, repo: repo.dir, cleanup: repo.cleanup }));
}

export interface WatchedRun {
  code: number | null;
  /** VmHWM of agent-collab's process, last read before it exited. */
  peakRssBytes: number;
  stdoutBytes: number;
  /** The NDJSON events, long strings shortened (see MemoryRun). */
  events: Array<Record<string, unknown>>;
  /** Killed after `timeoutMs`. */
  timedOut: boolean;
}

/**
 * `node <cli> <args>` (the built agent-collab) in `cwd`, its stdout read only after `startDelayMs`, then in small
 * bursts (a slow `--json` reader), its peak RSS polled; its process group is killed after `timeoutMs`.
 */
export function watchRun(
  args: string[],
  opts: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    cli?: string;
    startDelayMs?: number;
    burstPauseMs?: number;
    timeoutMs?: number;
  },
): Promise<WatchedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [opts.cli ?? CLI, ...args], {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    let timedOut = false;
    const killer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, opts.timeoutMs ?? 600_000);
    let peak = 0;
    const poll = setInterval(() => {
      if (child.pid !== undefined) peak = Math.max(peak, vmHwm(child.pid) ?? 0);
    }, 20);
    let bytes = 0;
    let partial = '';
    const events: Array<Record<string, unknown>> = [];
    const take = (d: Buffer): void => {
      bytes += d.length;
      const text = partial + d.toString('utf8');
      const lines = text.split('\n');
      partial = lines.pop() ?? '';
      // a line over 16 MB (agent-collab passes none on) is not kept whole: the reader must not run out of memory
      if (partial.length > 16 * MB) partial = partial.slice(0, 4096);
      for (const l of lines) events.push(shortened(l));
    };
    child.stdout.pause();
    setTimeout(() => {
      child.stdout.on('data', (d: Buffer) => {
        take(d);
        child.stdout.pause();
        setTimeout(() => child.stdout.resume(), opts.burstPauseMs ?? 1);
      });
      child.stdout.resume();
    }, opts.startDelayMs ?? 1000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      clearTimeout(killer);
      resolve({ code, peakRssBytes: peak, stdoutBytes: bytes, events, timedOut });
    });
  });
}

/** An NDJSON line as an object whose long strings are cut to 200 characters (or a marker when it is not JSON). */
function shortened(line: string): Record<string, unknown> {
  try {
    const o = JSON.parse(line) as Record<string, unknown>;
    for (const [k, v] of Object.entries(o))
      if (typeof v === 'string' && v.length > 200)
        o[k] = `${v.slice(0, 200)}…(${v.length}${v.includes('characters cut here') ? ', cut' : ''})`;
    return o;
  } catch {
    return { unparsed: line.slice(0, 200) };
  }
}

export const MEMORY_CASES: Array<{ name: string; out: LoudOutput }> = [
  { name: '2×50 MB in 1 MB lines to a slow --json reader', out: { messages: 50, messageChars: MB } },
  { name: 'a 50 MB single line (each turn) to a slow --json reader', out: { messages: 1, messageChars: 50 * MB } },
  { name: 'a 100 MB single stderr line (each turn)', out: { messages: 1, messageChars: 1024, stderrChars: 100 * MB } },
];

export async function memoryLines(): Promise<string[]> {
  const lines = ['memory: peak RSS of agent-collab while a stand-in codex prints a lot (goal < 300 MB)'];
  for (const c of MEMORY_CASES) {
    const r = await runLoud(c.out);
    r.cleanup();
    const mb = (r.peakRssBytes / MB).toFixed(0);
    const ok = r.code === 3 && r.peakRssBytes > 0 && r.peakRssBytes < RSS_GOAL_BYTES;
    lines.push(
      `  ${c.name}: peak RSS ${mb} MB, ${(r.stdoutBytes / MB).toFixed(0)} MB of NDJSON, exit ${r.code} ${ok ? 'PASS' : 'FAIL'}`,
    );
  }
  return lines;
}
