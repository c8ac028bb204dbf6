// Issue 20 (Goal input habit), in a real terminal: the built TUI turns bracketed paste on, so a multi-line block
// pasted into the goal box (tmux paste-buffer -p: its line breaks arrive as CRs, as a terminal sends them) stays
// in the box as text; Ctrl+J adds a line; Enter sends the whole as ONE message, and the planner gets it intact.
// What was sent is kept, redacted, in the person's state dir (input-history/<repo>.json) for ↑ in the next run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inputHistoryPath } from '../../src/persistence/input-history.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { tempRepoWithFakeScript } from '../helpers/repo.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const SOCKET = `ac-paste-${process.pid}-${Date.now()}`;
const SESSION = 'paste';

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

const screens: string[] = [];
function screen(): string {
  const s = tmux('capture-pane', '-p', '-t', SESSION);
  if (screens.at(-1) !== s) screens.push(s);
  if (screens.length > 20) screens.shift();
  return s;
}
const dump = (): string => screens.slice(-3).join('\n──────\n');

async function until(what: string, match: (s: string) => boolean, timeoutMs = 15_000): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const s = screen();
    if (match(s)) return s;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last screens:\n${dump()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const shows = (text: string, timeoutMs?: number): Promise<string> =>
  until(JSON.stringify(text), (s) => s.includes(text), timeoutMs);
const keys = (...k: string[]): void => void tmux('send-keys', '-t', SESSION, ...k);
const type = (text: string): void => void tmux('send-keys', '-t', SESSION, '-l', text);

const BLOCK = ['Add a greeting module.', 'It says hello in English and French.', '', 'Tests: one per language.'];
const GH = `ghp_${'k3Jd9Qw2Lm'.repeat(3)}Zx81Pq`;

describe.skipIf(!hasTmux)('a multi-line paste into the goal box of the built TUI', () => {
  let repo: ReturnType<typeof tempRepoWithFakeScript>;
  let socketPath = '';

  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
    repo = tempRepoWithFakeScript({ rules: [] });
    tmux('new-session', '-d', '-x', '100', '-y', '30', '-s', SESSION, '-c', repo.dir, 'bash --norc --noprofile');
    socketPath = tmux('display-message', '-p', '#{socket_path}').trim();
  });

  afterAll(() => {
    if (!hasTmux) return;
    spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
    if (socketPath) rmSync(socketPath, { force: true });
    repo?.cleanup();
  });

  it('stays in the box, and Enter sends it whole as one message the planner gets intact', async () => {
    await until('the shell prompt', (s) => /[#$]\s*$/m.test(s));
    const env = `HOME=${JSON.stringify(repo.home)} XDG_CONFIG_HOME=${JSON.stringify(path.join(repo.home, '.config'))} XDG_STATE_HOME=`;
    type(`env ${env} node ${JSON.stringify(CLI)}; echo "exit code $?"`);
    keys('Enter');
    await shows('waiting for your goal');

    // The block as a person pastes it: tmux wraps it in ESC[200~ … ESC[201~ (-p) since the TUI asked for it.
    const buffer = path.join(repo.home, 'paste.txt');
    writeFileSync(buffer, `${BLOCK.join('\n')}\nkey ${GH}`);
    tmux('load-buffer', '-b', 'block', buffer);
    tmux('paste-buffer', '-p', '-b', 'block', '-t', SESSION);
    await shows('goal › Add a greeting module.');
    await shows(`key ${GH.slice(0, 20)}`); // the last line: the whole block is in the box
    // A paste of a lone line break: the bytes are a bare CR, which is Enter unless the paste marks surround it (as
    // when a terminal's read ends on a pasted CR). It must add a line, not send the goal.
    writeFileSync(buffer, '\n');
    tmux('load-buffer', '-b', 'newline', buffer);
    tmux('paste-buffer', '-p', '-b', 'newline', '-t', SESSION);
    type('Keep it small.');
    await shows('Keep it small.');
    const box = screen();
    // Nothing was sent: the planner has not been asked, the lines are rows of the box.
    expect(box, dump()).not.toContain('## Refined goal');
    expect(box, dump()).toMatch(/goal › Add a greeting module\.\s*│\n│\s+It says hello in English and French\.\s*│/);

    keys('Enter');
    await shows('## Refined goal', 30_000);
    const state = JSON.parse(readFileSync(path.join(repo.dir, '.agent-collab', 'state.json'), 'utf8')) as {
      goal: string;
    };
    // One message: the goal is the whole text (a CR that sent it would have made the first line the goal).
    expect(state.goal).toBe([...BLOCK, 'key [REDACTED:github-token]', 'Keep it small.'].join('\n'));
    // The planner was asked once, with all of it: its answer repeats the goal it got.
    const answered = await shows('Tests: one per language.');
    expect(answered.split('## Refined goal').length - 1, dump()).toBe(1);

    // Kept for ↑ in the next run, without the secret.
    const saved = readFileSync(inputHistoryPath(realpathSync(repo.dir), repo.home, {}), 'utf8');
    expect(saved).not.toContain(GH);
    expect((JSON.parse(saved) as { entries: string[] }).entries).toEqual([
      [...BLOCK, 'key [REDACTED:github-token]', 'Keep it small.'].join('\n'),
    ]);

    keys('C-c');
    await shows('exit code 130');
    // Bracketed paste was turned off with the alternate screen: the shell gets its own setting back.
    expect(tmux('display-message', '-p', '-t', SESSION, '#{alternate_on}').trim()).toBe('0');
  }, 60_000);

  it('the next run: the terminal’s own keys edit at the cursor, and ↑ recalls what was sent before', async () => {
    await until('the shell prompt', (s) => /[#$]\s*$/m.test(s));
    const env = `HOME=${JSON.stringify(repo.home)} XDG_CONFIG_HOME=${JSON.stringify(path.join(repo.home, '.config'))} XDG_STATE_HOME=`;
    type(`clear; env ${env} node ${JSON.stringify(CLI)}; echo "exit code $?"`);
    keys('Enter');
    await shows('Unfinished session found'); // the first test left its run at goal refinement
    keys('Enter');
    await shows('Ctrl+G goal ready');
    // The bytes tmux sends for these keys, as a terminal does: Home ESC[1~, Delete ESC[3~, End ESC[4~, Alt+B ESC b.
    type('fix the bug');
    keys('Home', 'DC', 'DC', 'DC', 'DC', 'End', 'M-b', 'C-w');
    await until('"bug" with the cursor before it', (s) => /goal › bug\s*│/.test(s));
    type('one ');
    keys('C-k');
    type('two');
    await shows('goal › one two');
    keys('Enter');
    await shows('Taking into account: one two', 30_000);

    // ↑: the newest first, then the pasted block of the first run (its last line shows with the cursor on it).
    keys('Up');
    await until('the newest entry recalled', (s) => /goal › one two\s*│/.test(s));
    keys('Up');
    await until('the pasted block recalled, its six lines the box’s six rows', (s) =>
      /goal › Add a greeting module\.\s*│\n│\s+It says hello in English and French\.[\s\S]*│\s+Keep it small\.\s*│\n╰/.test(
        s,
      ),
    );
    keys('C-c');
    await shows('exit code 130');
  }, 60_000);
});
