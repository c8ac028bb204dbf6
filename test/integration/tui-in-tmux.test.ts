// The built CLI's TUI in a real terminal (tmux), on the fake agents: start, type a goal, Enter through the
// rounds to approval (auto mode and a pause on the way), stop (confirmed), Ctrl+C, restart → the resume prompt.
// Outside a git repo, the first frame goes and one line says why.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempRepoWithFakeScript } from '../helpers/repo.js';
import { cliCommand, hasTmux, TmuxPane } from '../helpers/tmux.js';

/** The revision runs until the test creates `gate`, so P lands while it runs (no fixed delay). */
const script = (gate: string) => ({
  rules: [
    { when: { kind: 'review' }, times: 1, do: { verdict: 'CHANGES_REQUIRED' } },
    { when: { kind: 'respond' }, do: { run: `until [ -e ${JSON.stringify(gate)} ]; do sleep 0.05; done` } },
  ],
});

const pane = new TmuxPane('tui');
const until = pane.until.bind(pane);
const shows = pane.shows.bind(pane);
const keys = pane.keys.bind(pane);
const type = pane.type.bind(pane);
const dump = pane.dump.bind(pane);

describe.skipIf(!hasTmux)('the built TUI in tmux', () => {
  let repo: ReturnType<typeof tempRepoWithFakeScript>;
  const gate = path.join(mkdtempSync(path.join(os.tmpdir(), 'ac-gate-')), 'revision-may-end');

  beforeAll(() => {
    repo = tempRepoWithFakeScript(script(gate));
    pane.open(repo.dir, 100, 30);
  });

  afterAll(() => {
    pane.close();
    repo?.cleanup();
    rmSync(path.dirname(gate), { recursive: true, force: true });
  });

  it('goal → Enter through rounds (auto, pause on the way) → approval → stop → Ctrl+C → resume prompt', async () => {
    await pane.prompt();
    const run = `${cliCommand(repo.home, 'EDITOR=true')}; echo "exit code $?"`;
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
    writeFileSync(gate, ''); // the revision ends only now, with the pause pending
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
    await pane.prompt();
    type(`clear; ${cliCommand(repo.home)}; echo "exit code $?"`);
    keys('Enter');
    await shows('Unfinished session found'); // the first test left its run unfinished
    expect(pane.display('#{alternate_on}')).toBe('1');
    const shell = pane.display('#{pane_pid}');
    const node = execFileSync('pgrep', ['-P', shell, 'node'], { encoding: 'utf8' }).trim().split('\n')[0] ?? '';
    process.kill(Number(node), 'SIGTERM');
    await shows('exit code 143');
    expect(pane.display('#{alternate_on}'), dump()).toBe('0');
  }, 30_000);

  it('outside a git repo the TUI ends with one line saying so and exit 2, its first frame erased', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'ac-no-repo-'));
    try {
      await pane.prompt();
      type(`clear; cd ${JSON.stringify(outside)} && ${cliCommand(repo.home)}; echo "exit code $?"`);
      keys('Enter');
      const s = await shows('exit code 2');
      expect(s, dump()).toContain(`agent-collab: ${outside} is not inside a git repository`);
      expect(s, dump()).not.toContain('[1:Conversation]');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  }, 30_000);
});
