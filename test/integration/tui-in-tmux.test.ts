// The built CLI's TUI in a real terminal (tmux), on the fake agents: start, type a goal, Enter through the
// rounds to approval (auto mode and a pause on the way), stop (confirmed), Ctrl+C, restart → the resume prompt.
// Outside a git repo, the first frame goes and one line says why.
// (A Python pty hangs when Ink exits; tmux gives a real terminal we can read back.)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { tempRepoWithFakeScript } from '../helpers/repo.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const SOCKET = `ac-tui-${process.pid}-${Date.now()}`;
const SESSION = 'tui';

const SCRIPT = {
  rules: [
    { when: { kind: 'review' }, times: 1, do: { verdict: 'CHANGES_REQUIRED' } },
    // A revision that takes a while, so P can land while it runs.
    { when: { kind: 'respond' }, do: { delayMs: 2500 } },
  ],
};

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

const screens: string[] = [];
function screen(): string {
  const s = tmux('capture-pane', '-p', '-t', SESSION);
  if (screens.at(-1) !== s) screens.push(s);
  if (screens.length > 40) screens.shift();
  return s;
}

function dump(): string {
  return screens
    .slice(-4)
    .map((s, i, all) => `\n──── screen ${screens.length - all.length + i + 1} ────\n${s}`)
    .join('');
}

/** Polls the pane until `match` holds; fails with the last captured screens. */
async function until(what: string, match: (s: string) => boolean, timeoutMs = 15_000): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const s = screen();
    if (match(s)) return s;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last screens:${dump()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const shows = (text: string, timeoutMs?: number): Promise<string> =>
  until(JSON.stringify(text), (s) => s.includes(text), timeoutMs);
const keys = (...k: string[]): void => void tmux('send-keys', '-t', SESSION, ...k);
const type = (text: string): void => void tmux('send-keys', '-t', SESSION, '-l', text);

describe.skipIf(!hasTmux)('the built TUI in tmux', () => {
  let repo: ReturnType<typeof tempRepoWithFakeScript>;
  let socketPath = '';

  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
    repo = tempRepoWithFakeScript(SCRIPT);
    tmux('new-session', '-d', '-x', '100', '-y', '30', '-s', SESSION, '-c', repo.dir, 'bash --norc --noprofile');
    socketPath = tmux('display-message', '-p', '#{socket_path}').trim();
  });

  afterAll(() => {
    if (!hasTmux) return;
    spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
    if (socketPath) rmSync(socketPath, { force: true }); // the server leaves its socket file behind
    repo?.cleanup();
  });

  it('goal → Enter through rounds (auto, pause on the way) → approval → stop → Ctrl+C → resume prompt', async () => {
    await until('the shell prompt', (s) => /[#$]\s*$/m.test(s));
    const env = `HOME=${JSON.stringify(repo.home)} XDG_CONFIG_HOME=${JSON.stringify(path.join(repo.home, '.config'))} EDITOR=true`;
    const run = `env ${env} node ${JSON.stringify(CLI)}; echo "exit code $?"`;
    type(`echo before-the-tui; ${run}`);
    keys('Enter');

    // Goal refinement: type a goal, the planner answers, then the goal is ready (Ctrl+G is offered once there is one).
    await shows('waiting for your goal');
    await until('REFINE_GOAL', (x) => /REFINE_GOAL\s+iter 0\/\d+\s+MANUAL/.test(x));
    type('Add a greeting module');
    await shows('goal › Add a greeting module');
    keys('Enter');
    await shows('## Refined goal');
    await shows('Ctrl+G goal ready');
    keys('C-g');

    // Manual mode: each Enter lets one round through. After the first review, A switches to auto mode; P during
    // the revision pauses at the next safe point (the second review waits for Enter); Enter then runs to approval.
    const nextLine = (x: string): string => (/Next: .*/.exec(x)?.[0] ?? '').replace(/\. Enter.*/, '');
    const gates: string[] = [];
    const nextGate = async (): Promise<string> => {
      const s = await until(
        'a round waiting for Enter',
        (x) => x.includes('Enter next round') && nextLine(x) !== '' && nextLine(x) !== gates.at(-1),
        30_000,
      );
      gates.push(nextLine(s));
      return s;
    };
    await nextGate();
    keys('Enter');
    await nextGate();
    keys('Enter');
    await nextGate(); // the revision is next
    await until('RESPOND in manual mode', (x) => /RESPOND\s+iter 1\/\d+\s+MANUAL/.test(x));
    keys('a');
    await until(
      'AUTO and the revision running',
      (s) => /\bAUTO\b/.test(s) && s.includes('planner: revising the plan after review'),
    );
    keys('p');
    await shows('PAUSING');
    await nextGate();
    await until('PAUSED', (x) => /REVIEW\s+iter 1\/\d+\s+PAUSED/.test(x));
    keys('Enter');
    await nextGate();
    expect(gates, dump()).toEqual([
      'Next: planner — writing the plan',
      'Next: reviewer — reviewing the plan (round 1)',
      'Next: planner — revising the plan after review',
      'Next: reviewer — reviewing the plan (round 2)',
      expect.stringMatching(/^Next: planner — executing step 1\/2/),
    ]);
    await until('APPROVED', (x) => /APPROVED\s+iter 2\/\d+/.test(x));

    // S asks first; y stops the phase and returns to goal refinement.
    keys('s');
    await shows('Stop this phase and go back to goal refinement? [y/N]');
    keys('y');
    await until('REFINE_GOAL', (s) => /REFINE_GOAL\s+iter/.test(s) && s.includes('waiting for your goal'));

    // Ctrl+C saves and exits with 130. The TUI drew on the alternate screen: the shell's screen is back as it was,
    // with one line on where the run stands and how to go on.
    keys('C-c');
    const back = await shows('exit code 130');
    expect(back, dump()).toMatch(/^before-the-tui$/m);
    expect(back, dump()).toContain('agent-collab: run saved at REFINE_GOAL; run `agent-collab` here to continue it');
    expect(back, dump()).not.toContain('1:Conversation');

    // Restart (on a cleared screen): the unfinished run is offered; Enter resumes it.
    type(`clear; ${run}`);
    keys('Enter');
    await shows('Unfinished session found (phase REFINE_GOAL');
    await shows('Enter/y: resume it');
    keys('Enter');
    await until(
      'the resumed run',
      (s) => !s.includes('Resume?') && /REFINE_GOAL\s+iter 0\/\d+\s+MANUAL/.test(s) && s.includes('Ctrl+G goal ready'),
    );
    // The conversation so far is read back from debug.log (the screen was cleared): the reviewer's approval is back.
    await shows('1. Looks good.');
    keys('C-c');
    await shows('exit code 130');
  }, 120_000);

  it('a SIGTERM at the resume prompt gives the terminal back: off the alternate screen, exit 143', async () => {
    await until('the shell prompt', (s) => /[#$]\s*$/m.test(s));
    const env = `HOME=${JSON.stringify(repo.home)} XDG_CONFIG_HOME=${JSON.stringify(path.join(repo.home, '.config'))}`;
    type(`clear; env ${env} node ${JSON.stringify(CLI)}; echo "exit code $?"`);
    keys('Enter');
    await shows('Unfinished session found'); // the first test left its run unfinished
    expect(tmux('display-message', '-p', '-t', SESSION, '#{alternate_on}').trim()).toBe('1');
    const shell = tmux('display-message', '-p', '-t', SESSION, '#{pane_pid}').trim();
    const node = execFileSync('pgrep', ['-P', shell, 'node'], { encoding: 'utf8' }).trim().split('\n')[0] ?? '';
    process.kill(Number(node), 'SIGTERM');
    await shows('exit code 143');
    expect(tmux('display-message', '-p', '-t', SESSION, '#{alternate_on}').trim(), dump()).toBe('0');
  }, 30_000);

  it('outside a git repo the TUI ends with one line saying so and exit 2, its first frame erased', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'ac-no-repo-'));
    try {
      await until('the shell prompt', (s) => /[#$]\s*$/m.test(s));
      type(
        `clear; cd ${JSON.stringify(outside)} && env HOME=${JSON.stringify(repo.home)} node ${JSON.stringify(CLI)}; echo "exit code $?"`,
      );
      keys('Enter');
      const s = await shows('exit code 2');
      expect(s, dump()).toContain(`agent-collab: ${outside} is not inside a git repository`);
      expect(s, dump()).not.toContain('[1:Conversation]');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  }, 30_000);
});
