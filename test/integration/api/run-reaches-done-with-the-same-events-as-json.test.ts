// run() of the library API reaches DONE: its steps' commits are in git, its result names them and the report, and
// the events onEvent received are the `--json` lines of the same scripted run by the built CLI.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../../src/index.js';
import type { RunEvent } from '../../../src/index.js';
import { runCli } from '../../helpers/cli.js';
import { apiRepo, masked, type ApiRepo } from './api-helpers.js';

const repos: ApiRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

/** The reviewer asks for changes once, then approves: two review rounds, then the steps. */
const SCRIPT = {
  rules: [
    { when: { kind: 'review' }, times: 1, do: { verdict: 'CHANGES_REQUIRED', text: '## Comments\n1. say more' } },
    { when: { kind: 'execute_step', step: 1 }, do: { writeFiles: { 'src/one.txt': 'one\n' } } },
  ],
};

function commitsOf(dir: string): Array<{ sha: string; subject: string }> {
  return execFileSync('git', ['log', '--format=%H %s'], { cwd: dir, encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => ({ sha: l.slice(0, 40), subject: l.slice(41) }));
}

describe('run() of the library API', () => {
  it('reaches DONE with the steps committed, and hands onEvent the events `agent-collab run --json` prints', async () => {
    const api = apiRepo(SCRIPT);
    const cli = apiRepo(SCRIPT);
    repos.push(api, cli);
    // The CLI reads the same roles from the project's config file.
    mkdirSync(path.join(cli.dir, '.agent-collab'), { recursive: true });
    writeFileSync(
      path.join(cli.dir, '.agent-collab', 'config.toml'),
      `[roles]\nplanner = "fake"\nreviewer = "fake"\n[fake]\nscript = ${JSON.stringify(cli.script)}\n`,
    );
    const events: RunEvent[] = [];
    const [result, printed] = await Promise.all([
      run({
        cwd: api.dir,
        goal: 'add one file',
        auto: true,
        autoApprove: true,
        config: api.config,
        onEvent: (e) => events.push(e),
      }),
      runCli(['run', '--goal', 'add one file', '--auto', '--auto-approve', '--json'], {
        cwd: cli.dir,
        home: cli.home,
      }).done,
    ]);

    expect(printed.code).toBe(0);
    expect(result.exitCode).toBe(0);
    expect(result.phase).toBe('DONE');
    // The steps' commits are in git, as the result names them.
    const commits = commitsOf(api.dir);
    expect(commits.map((c) => c.subject).slice(0, 2)).toEqual([
      expect.stringMatching(/^\[Step 2\] /),
      expect.stringMatching(/^\[Step 1\] /),
    ]);
    expect(result.steps).toEqual([
      { number: 1, title: expect.any(String), status: 'done', commit: commits[1]!.sha },
      { number: 2, title: expect.any(String), status: 'done', commit: commits[0]!.sha },
    ]);
    expect(readFileSync(path.join(api.dir, 'src/one.txt'), 'utf8')).toBe('one\n');
    // The report is written where the result says, and usage is counted per role.
    expect(result.report).toMatch(/\/\.agent-collab\/runs\/[^/]+\/report\.md$/);
    expect(existsSync(result.report!)).toBe(true);
    expect(readFileSync(result.report!, 'utf8')).toContain('\nstatus: "SUCCESS"\n');
    const rounds = (role: string) => events.filter((e) => e.event === 'round' && e.role === role).length;
    expect(result.usage.planner).toMatchObject({ agent: 'fake', calls: rounds('planner') });
    expect(result.usage.reviewer).toMatchObject({ agent: 'fake', calls: rounds('reviewer') });
    expect(events.filter((e) => e.event === 'verdict').map((e) => e.event === 'verdict' && e.verdict)).toEqual([
      'CHANGES_REQUIRED',
      'APPROVED',
    ]);
    expect(result.usage.total.calls).toBe(rounds('planner') + rounds('reviewer'));
    expect(result.usage.total.inputTokens).toBe(result.usage.planner.inputTokens + result.usage.reviewer.inputTokens);

    // The same events, in the same order, as the CLI's NDJSON lines (times, hashes and ids masked).
    const lines = printed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.map((e) => masked(e, api.dir))).toEqual(lines.map((e) => masked(e, cli.dir)));
    expect(events.every((e) => typeof e.ts === 'string')).toBe(true);
    expect(events.at(-1)).toMatchObject({ event: 'done', phase: 'DONE', exit_code: 0 });
    expect(events.find((e) => e.event === 'report')).toMatchObject({ status: 'SUCCESS', path: result.report });
  });
});
