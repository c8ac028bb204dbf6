// What a CI job relies on when it runs the built CLI with stdin not a terminal (an open pipe nobody writes to):
// it never waits for input; every stdout line is one JSON object of a known `RunEvent` kind, the last one `done`
// with the process's exit code; exit 3 where a person is needed, answered by `--decide` on the next invocation;
// exit 4 when an agent fails. (Exit 130 on SIGINT/SIGTERM and exit 2 on bad input are proven on the same CLI in
// test/integration/cli-lock-interrupt-resume.test.ts; `--answer` in the workflow's own test next to this one.)
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src/core/errors.js';
import type { RunEventName } from '../../../src/modes/run-events.js';
import { readWork, tempRepoWithFakeScript } from '../../helpers/repo.js';
import { runCliOpenStdin } from './ci-helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

/** Every kind the `RunEvent` union has: the type checker refuses a missing or an unknown one. */
const KNOWN: Record<RunEventName, true> = {
  phase: true,
  agent: true,
  verdict: true,
  round: true,
  command: true,
  code_review: true,
  budget: true,
  tests: true,
  notice: true,
  rejected: true,
  error: true,
  report: true,
  needs_human: true,
  waiting: true,
  done: true,
};

/** The lines parsed, each checked to be one object of a known kind with its time stamp. */
function ndjson(lines: string[]): Array<Record<string, unknown>> {
  return lines.map((line) => {
    const e = JSON.parse(line) as Record<string, unknown>;
    expect(typeof e, line).toBe('object');
    expect(Object.keys(KNOWN), line).toContain(e.event);
    expect(Number.isNaN(Date.parse(String(e.ts))), line).toBe(false);
    return e;
  });
}

const ONE_STEP = { when: { kind: 'write_plan' }, do: { text: '## Steps\n1. [ ] Add a.txt\n' } };

describe('the headless contract, stdin an open pipe', () => {
  it('exit 3 at the iteration cap and for an unfinished run without --resume, never waiting; --decide approve → exit 0', async () => {
    const repo = tempRepoWithFakeScript({
      rules: [ONE_STEP, { when: { kind: 'review', iteration: 1 }, do: { verdict: 'CHANGES_REQUIRED' } }],
    });
    cleanup = repo.cleanup;
    const at = { cwd: repo.dir, home: repo.home };

    const capped = await runCliOpenStdin(
      ['run', '--goal', 'g', '--auto', '--auto-approve', '--json', '--max-iterations', '1'],
      at,
    );
    expect(capped.code).toBe(EXIT.needsHuman);
    const events = ndjson(capped.lines);
    const waits = events.find((e) => e.event === 'needs_human');
    expect(waits).toMatchObject({ kind: 'arbitration', iteration: 1 });
    expect((waits!.choices as Array<{ flag: string }>).map((c) => c.flag)).toContain('--decide approve');
    expect(events.at(-1)).toMatchObject({ event: 'done', exit_code: EXIT.needsHuman, phase: 'REVIEW' });

    // An unfinished run and no --resume: nobody to ask "Resume? [Y/n]" on a pipe, so it says how and ends.
    const asked = await runCliOpenStdin(['run', '--goal', 'another goal', '--json'], at);
    expect(asked.code).toBe(EXIT.needsHuman);
    expect(ndjson(asked.lines)).toEqual([
      expect.objectContaining({
        event: 'notice',
        message: expect.stringContaining('rerun with --resume to continue it, or --fresh to archive it'),
      }),
    ]);
    expect(JSON.parse(readWork(repo.dir, 'state.json'))).toMatchObject({ goal: 'g', phase: 'REVIEW' });

    const approved = await runCliOpenStdin(
      ['run', '--resume', '--decide', 'approve', '--auto', '--auto-approve', '--json'],
      at,
    );
    expect(approved.stderr).toBe('');
    expect(approved.code).toBe(EXIT.done);
    expect(ndjson(approved.lines).at(-1)).toMatchObject({ event: 'done', exit_code: EXIT.done, phase: 'DONE' });
    expect(readWork(repo.dir, 'log.md')).toContain('Plan force-approved by the person at iteration 1');
  });

  it('an agent failure → exit 4 with a needs_human failure event and done carrying 4', async () => {
    const repo = tempRepoWithFakeScript({
      rules: [
        { when: { kind: 'write_plan' }, do: { fail: { kind: 'agent_error', message: 'HTTP 400 invalid request' } } },
      ],
    });
    cleanup = repo.cleanup;
    const failed = await runCliOpenStdin(['run', '--goal', 'g', '--auto', '--json'], {
      cwd: repo.dir,
      home: repo.home,
    });
    expect(failed.code).toBe(EXIT.agentFailure);
    const events = ndjson(failed.lines);
    expect(events.find((e) => e.event === 'needs_human')).toMatchObject({ kind: 'failure', failure: 'agent_error' });
    expect(events.at(-1)).toMatchObject({ event: 'done', exit_code: EXIT.agentFailure });
  });
});
