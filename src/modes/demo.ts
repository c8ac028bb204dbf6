// `agent-collab demo`: the whole workflow in a throwaway git repo, on scripted fake agents (no API keys).
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { runHeadless } from './headless.js';

export const DEMO_GOAL = 'Add a greeting module with a unit test';

async function makeDemoRepo(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'agent-collab-demo-'));
  const git = (...args: string[]) => execa('git', args, { cwd: dir, stdin: 'ignore' });
  await git('init', '-q', '-b', 'main');
  await git('config', 'user.name', 'agent-collab demo');
  await git('config', 'user.email', 'demo@agent-collab.invalid');
  await git('config', 'commit.gpgsign', 'false');
  await writeFile(path.join(dir, 'README.md'), '# demo project\n');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'initial commit');
  await mkdir(path.join(dir, '.agent-collab'), { recursive: true });
  await writeFile(path.join(dir, '.agent-collab', 'config.toml'), '[roles]\nplanner = "fake"\nreviewer = "fake"\n');
  return dir;
}

export async function runDemo(opts: { json: boolean; keep: boolean }): Promise<number> {
  const dir = await makeDemoRepo();
  const say = (text: string): void => {
    (opts.json ? process.stderr : process.stdout).write(`${text}\n`);
  };
  say(`Demo repo: ${dir} (fake planner and reviewer, auto mode)`);
  try {
    const code = await runHeadless({ cwd: dir, goal: DEMO_GOAL, auto: true, autoApprove: true, json: opts.json, resume: 'fresh', handleSignals: true });
    const log = await execa('git', ['log', '--oneline'], { cwd: dir, stdin: 'ignore', reject: false });
    say(`\ngit log --oneline:\n${String(log.stdout)}`);
    return code;
  } finally {
    if (opts.keep) say(`Kept the demo repo at ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}
