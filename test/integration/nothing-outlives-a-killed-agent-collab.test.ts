// agent-collab (the built CLI) is killed with SIGKILL while an agent's command, the test command or a git hook of
// the step commit runs a writer that appends to a file every 100 ms: nothing it started keeps running (its
// watchdog ends them), the file stops growing, and `--resume` finishes the step with what was written before.
// With the watchdog killed too, the next start ends what was left before anything runs, and asks the person first.
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitLog, tempRepo } from '../helpers/repo.js';
import { eventually, grows, killAll, ownerTagOf, processesTagged, sizeOf, watchdogOf } from './orphans-helpers.js';

const PLAN = '# Task: Grow\n\n## Goal\nA file.\n\n## Steps\n1. [ ] Write grow.txt\n';
/** A writer in the background and a long sleep in the foreground; the second time (marker set) it does nothing. */
const writer = (file: string, marker: string) =>
  `test -e ${marker} && exit 0; touch ${marker}; (while :; do echo x >> ${file}; sleep 0.1; done) & sleep 1000`;

interface Setup {
  run?: string;
  testCommand?: string;
  sandbox?: 'on' | 'off';
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function setup(s: Setup) {
  const repo = tempRepo();
  const scriptFile = path.join(repo.home, 'script.json');
  const execute = { writeFiles: {}, text: 'Summary: grow', ...(s.run ? { run: s.run } : {}) };
  const script = {
    rules: [
      { when: { kind: 'write_plan' }, do: { text: PLAN } },
      { when: { kind: 'review' }, do: { verdict: 'APPROVED', text: '## Comments\n1. Fine.' } },
      { when: { kind: 'execute_step', step: 1 }, do: s.run ? execute : { ...execute, writeFiles: { 'a.txt': 'a\n' } } },
    ],
  };
  writeFileSync(scriptFile, JSON.stringify(script));
  const config = [
    '[roles]\nplanner = "fake"\nreviewer = "fake"',
    `[fake]\nscript = ${JSON.stringify(scriptFile)}`,
    `[safety]\nsandbox = "${s.sandbox ?? 'off'}"`,
    s.testCommand ? `[test]\ndefault_command = ${JSON.stringify(s.testCommand)}` : '',
  ].join('\n');
  execFileSync('mkdir', ['-p', path.join(repo.dir, '.agent-collab')]);
  writeFileSync(path.join(repo.dir, '.agent-collab', 'config.toml'), `${config}\n`);
  let tag: string | null = null;
  cleanups.push(() => {
    if (tag) killAll(processesTagged(tag)); // only if the test failed: nothing should be left
    repo.cleanup();
  });
  const args = ['run', '--auto', '--auto-approve', '--json'];
  return {
    repo,
    args,
    /** Starts a run, waits until `file` grows, then SIGKILLs it (and first its watchdog when asked). */
    async killWhileWriting(file: string, opts: { watchdogToo?: boolean } = {}) {
      const first = runCli([...args, '--goal', 'grow'], { cwd: repo.dir, home: repo.home });
      const done = first.done;
      expect(await eventually(() => sizeOf(file) > 0, 30_000)).toBe(true);
      tag = ownerTagOf(repo.dir);
      expect(processesTagged(tag).length).toBeGreaterThan(0);
      if (opts.watchdogToo) {
        const dog = watchdogOf(tag);
        expect(dog).not.toBeNull();
        process.kill(dog!, 'SIGKILL');
      }
      first.child.kill('SIGKILL');
      expect((await done).signal).toBe('SIGKILL');
      return tag;
    },
  };
}

async function expectNothingLeft(tag: string, file: string): Promise<void> {
  expect(await eventually(() => processesTagged(tag).length === 0)).toBe(true);
  expect(await grows(file)).toBe(false);
}

describe('nothing outlives a killed agent-collab', () => {
  it("during an agent's command: the command and its background writer end; the resumed step commits only what was written before", async () => {
    const s = setup({ run: writer('grow.txt', '"$HOME/.ran"') });
    const grow = path.join(s.repo.dir, 'grow.txt');
    const tag = await s.killWhileWriting(grow);
    await expectNothingLeft(tag, grow);
    const written = readFileSync(grow, 'utf8');

    const second = await runCli([...s.args, '--resume'], { cwd: s.repo.dir, home: s.repo.home }).done;
    expect(second.code).toBe(0);
    expect(gitLog(s.repo.dir)[0]).toBe('[Step 1] grow');
    expect(execFileSync('git', ['show', 'HEAD:grow.txt'], { cwd: s.repo.dir, encoding: 'utf8' })).toBe(written);
  });

  // This tier (fake agents) is the one place for the kills outside an agent's turn: the e2e file on the real CLIs
  // keeps only the kills during a real CLI's turn (the test command and the commit do not involve the CLI).
  it.each(['off', 'on'] as const)(
    'during the test command (sandbox %s): the test command and its background writer end; the resumed step commits only what was written before',
    async (sandbox) => {
      const s = setup({ testCommand: writer('test-grow.txt', '.tests-ran'), sandbox });
      const grow = path.join(s.repo.dir, 'test-grow.txt');
      const tag = await s.killWhileWriting(grow);
      await expectNothingLeft(tag, grow);
      const written = readFileSync(grow, 'utf8');

      const second = await runCli([...s.args, '--resume'], { cwd: s.repo.dir, home: s.repo.home }).done;
      expect(second.code).toBe(0);
      expect(gitLog(s.repo.dir).filter((l) => l.startsWith('[Step'))).toEqual(['[Step 1] grow']);
      const show = (f: string) => execFileSync('git', ['show', `HEAD:${f}`], { cwd: s.repo.dir, encoding: 'utf8' });
      expect(show('test-grow.txt')).toBe(written);
      expect(show('a.txt')).toBe('a\n');
    },
  );

  it('during the step commit: git, its slow pre-commit hook and the hook’s writer end; the resumed run commits once', async () => {
    const s = setup({});
    const hook = path.join(s.repo.dir, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, `#!/bin/sh\n${writer('"$HOME/hook-grow.txt"', '"$HOME/.hook-ran"')}\n`);
    chmodSync(hook, 0o755);
    const grow = path.join(s.repo.home, 'hook-grow.txt');
    const tag = await s.killWhileWriting(grow);
    await expectNothingLeft(tag, grow);

    const second = await runCli([...s.args, '--resume'], { cwd: s.repo.dir, home: s.repo.home }).done;
    expect(second.code).toBe(0);
    expect(gitLog(s.repo.dir).filter((l) => l.startsWith('[Step'))).toEqual(['[Step 1] grow']);
    expect(execFileSync('git', ['show', 'HEAD:a.txt'], { cwd: s.repo.dir, encoding: 'utf8' })).toBe('a\n');
  });

  it('with its watchdog killed too: the next start ends what was left before anything runs, and asks the person first', async () => {
    const s = setup({ run: writer('grow.txt', '"$HOME/.ran"') });
    const grow = path.join(s.repo.dir, 'grow.txt');
    const tag = await s.killWhileWriting(grow, { watchdogToo: true });
    expect(await grows(grow)).toBe(true); // nobody watches the orphan now

    const asked = await runCli([...s.args, '--resume'], { cwd: s.repo.dir, home: s.repo.home }).done;
    expect(asked.code).toBe(3);
    expect(asked.stdout + asked.stderr).toMatch(/killed during step 1 and left \d+ process\(es\) running, now ended/);
    expect(processesTagged(tag)).toEqual([]);
    expect(await grows(grow)).toBe(false);
    const debugLog = readFileSync(path.join(s.repo.dir, '.agent-collab', 'debug.log'), 'utf8');
    expect(debugLog).toMatch(/ended, left running by an earlier agent-collab: pid \d+: /);

    const again = await runCli([...s.args, '--resume'], { cwd: s.repo.dir, home: s.repo.home }).done;
    expect(again.code).toBe(0);
    expect(gitLog(s.repo.dir)[0]).toBe('[Step 1] grow');
  });
});
