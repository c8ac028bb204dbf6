// What the code review tests share: a repo whose `npm test` passes, and a headless run with fake agents.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import type { HeadlessOptions } from '../../../src/modes/headless.js';
import { runAutoHeadless } from '../../helpers/headless-run.js';
import { tempRepo } from '../../helpers/repo.js';

export type Repo = ReturnType<typeof tempRepo>;
export type Ev = Record<string, unknown>;

/** A repo with `config` as its project config and an `npm test` that passes. */
export function repoWithPassingTests(config: string): Repo {
  const repo = tempRepo(config);
  writeFileSync(
    path.join(repo.dir, 'package.json'),
    JSON.stringify({ name: 'x', private: true, scripts: { test: 'node -e "console.log(1)"' } }),
  );
  execFileSync('git', ['add', '-A'], { cwd: repo.dir });
  execFileSync('git', ['commit', '-q', '-m', 'tests'], { cwd: repo.dir });
  return repo;
}

export function runAuto(
  repo: Repo,
  agents: { planner: FakeAgent; reviewer: FakeAgent },
  extra: Partial<HeadlessOptions> = {},
): Promise<{ code: number; events: Ev[] }> {
  return runAutoHeadless(repo, agents, { goal: 'greet', ...extra });
}

/** The `code_review` events as `step:round VERDICT` (step `-` for the run's whole diff). */
export function codeVerdicts(events: Ev[]): string[] {
  return events
    .filter((e) => e.event === 'code_review')
    .map((e) => `${e.step === null ? '-' : String(e.step)}:${String(e.round)} ${String(e.verdict)}`);
}

export function show(dir: string, spec: string): string {
  return execFileSync('git', ['show', spec], { cwd: dir, encoding: 'utf8' });
}
