// Issue 20: a whole run driven by keyboard in a real terminal (tmux) on the built CLI and the fake agents — goal
// typed and refined, Ctrl+G, plan written, reviewed, approved, two steps executed and committed, DONE, q — at 80×24
// in colour and at 200×50 with NO_COLOR (each size and each colour mode once: four TUIs at once cost a loaded CI
// more than the two other pairs would tell). At the goal box, with the help open, during a streaming round, with a
// dialog open and on the DONE screen the layout holds (test/helpers/tui-layout.ts: tab bar on the first row, the
// status bar's two lines at the bottom, boxes whole in between, no line wider than the terminal), the colour run
// has colours and the NO_COLOR run none, both keep bold and inverse. The two runs go at once, each in its own tmux.
import { describe, expect, it } from 'vitest';
import { gitLog, tempRepoWithFakeScript } from '../helpers/repo.js';
import { cliCommand, hasTmux, TmuxPane } from '../helpers/tmux.js';
import { colourParams, layoutProblems, styleParams } from '../helpers/tui-layout.js';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Step 1 streams its output, then works on until the test creates `gate`: the screen is read while the round is
// under way.
const script = (gate: string) => ({
  rules: [
    {
      when: { kind: 'execute_step', step: 1 },
      do: {
        stream: { lines: 400, perChunk: 4, text: 'compiling module {n}' },
        run: `until [ -e ${JSON.stringify(gate)} ]; do sleep 0.05; done`,
      },
    },
  ],
});
// No test-command question, no code review: the run goes from approval through its steps to DONE.
const CONFIG = '[safety]\nsandbox = "off"\n[review]\ncode = "off"\n[test]\ndefault_command = "true"\n';

const RUNS = [
  { columns: 80, rows: 24, colour: true, name: 'in colour' },
  { columns: 200, rows: 50, colour: false, name: 'with NO_COLOR' },
];

describe.skipIf(!hasTmux)('a whole run by keyboard in tmux', () => {
  it.concurrent.each(RUNS)(
    'at $columns×$rows $name: the layout holds from the goal box to DONE, colour as asked',
    async ({ columns, rows, colour }) => {
      const gateFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'ac-gate-')), 'step-1-may-end');
      const repo = tempRepoWithFakeScript(script(gateFile));
      appendFileSync(path.join(repo.dir, '.agent-collab', 'config.toml'), CONFIG);
      const pane = new TmuxPane(`run-${columns}-${colour ? 'colour' : 'nocolor'}`);
      const checked: string[] = [];
      /** The layout and the styles of the screen as it is now; `point` names it in a failure. */
      const expectLayout = (point: string): void => {
        const problems = layoutProblems(pane.screen('joined'), { columns, rows });
        expect(problems, `${point}:${pane.dump()}`).toEqual([]);
        const styled = pane.screen('styled');
        if (colour) expect(colourParams(styled).length, `${point}: colours`).toBeGreaterThan(0);
        else expect(colourParams(styled), `${point}: NO_COLOR`).toEqual([]);
        const styles = styleParams(styled);
        expect(styles.has('1') && styles.has('7'), `${point}: bold and inverse`).toBe(true);
        checked.push(point);
      };
      const gate = (next: string): Promise<string> =>
        pane.until(next, (s) => s.includes(next) && s.includes('Enter next round'), 30_000);
      try {
        pane.open(repo.dir, columns, rows);
        await pane.prompt();
        pane.type(`${cliCommand(repo.home, colour ? 'TERM=xterm-256color' : 'NO_COLOR=1')}; echo "exit code $?"`);
        pane.keys('Enter');
        await pane.until('the goal box', (s) => /REFINE_GOAL\s+iter 0/.test(s) && s.includes('goal ›'), 30_000);
        expectLayout('goal box');

        pane.type('Add a greeting module');
        await pane.shows('goal › Add a greeting module');
        pane.keys('Enter');
        // The goal box offers Ctrl+G again once the planner's answer is in.
        const answered = (text: string) => (s: string) => s.includes(text) && s.includes('Ctrl+G or /ready');
        await pane.until('the refined goal', answered('## Refined goal'), 30_000);
        pane.type('and log it');
        pane.keys('Enter');
        await pane.until('the goal refined again', answered('Taking into account: and log it'), 30_000);
        pane.keys('C-g');
        await gate('Next: planner — writing the plan');
        pane.keys('Enter');
        await gate('Next: reviewer — reviewing the plan (round 1)');

        pane.type('?');
        await pane.shows('Esc / ? / q: close');
        expectLayout('help open');
        pane.keys('Escape');
        await pane.until('the help closed', (s) => !s.includes('Esc / ? / q: close'));
        pane.keys('Enter');
        await gate('Next: planner — executing step 1/2');

        pane.keys('Enter');
        await pane.until('step 1 streaming', (s) => /compiling module \d+/.test(s) && s.includes('Esc interrupt'));
        expectLayout('during a streaming round');
        writeFileSync(gateFile, '');
        await gate('Next: planner — executing step 2/2');

        pane.keys('s');
        await pane.shows('Stop this phase and go back to goal refinement? [y/N]');
        expectLayout('a dialog open');
        pane.keys('n');
        await pane.until('the dialog closed', (s) => !s.includes('[y/N]') && s.includes('Enter next round'));
        pane.keys('Enter');
        await pane.until('DONE', (s) => /^DONE\s+iter/m.test(s) && s.includes('n new goal'), 30_000);
        expectLayout('DONE');

        expect(gitLog(repo.dir).slice(0, 2)).toEqual(['[Step 2] add fake-step-2.txt', '[Step 1] add fake-step-1.txt']);
        pane.keys('q');
        await pane.shows('exit code 0');
        expect(checked).toEqual(['goal box', 'help open', 'during a streaming round', 'a dialog open', 'DONE']);
      } finally {
        pane.close();
        repo.cleanup();
        rmSync(path.dirname(gateFile), { recursive: true, force: true });
      }
    },
    150_000,
  );
});
