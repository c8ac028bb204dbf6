/**
 * agent-collab itself (the BUILT `dist/cli.js`, headless with --json) on the REAL codex and claude CLIs when the
 * model fails or hangs: HTTP 5xx retried as configured then `infra`, HTTP 429 `usage_limit` without a retry (claude:
 * with a retry-after it would not wait for), and an
 * agent that hangs stopped by the idle timeout with no CLI process left. Split from agent-collab-on-real-clis so
 * the two files run side by side. Run `npm run build` first (`npm test` does).
 */
import { describe } from 'vitest';
import { it } from './agent-collab-fixture.js';
import { events, plan, processesLeft, processesOf, readState } from './agent-collab-run.js';
import { describeRun, waitFor } from './harness.js';
import { reply } from './llm-server.js';

const GOAL = 'Add two text files a.txt and b.txt';

describe('agent-collab run on the real CLIs when the model fails or hangs', () => {
  it('codex: HTTP 500 → infra after the configured retry; then HTTP 429 → usage_limit; exit 4 each', async ({
    ac,
    expect,
  }) => {
    const { server } = ac;
    ac.config({ infraRetries: 1, backoffSeconds: 0.1 });
    server.openai.push(reply.error(500, 'scripted server failure'), reply.error(500, 'scripted server failure'));
    const r = await ac.run(['run', '--goal', GOAL, '--auto']);
    expect(r.code, describeRun(r)).toBe(4);
    expect(server.openai.requests).toHaveLength(2); // the first try and one retry
    expect(events(r, 'notice').filter((e) => /retrying in \d+ (?:ms|s) \(1\/1\)/.test(String(e.message)))).toHaveLength(
      1,
    );
    expect(events(r, 'needs_human')).toEqual([
      expect.objectContaining({ kind: 'failure', role: 'planner', failure: 'infra', phase: 'WRITE_PLAN' }),
    ]);

    server.openai.push(reply.rateLimited('scripted rate limit', 30));
    const again = await ac.run(['run', '--resume', '--auto']); // a rerun with --resume is the retry
    expect(again.code, describeRun(again)).toBe(4);
    expect(server.openai.requests).toHaveLength(3); // usage limits are not retried
    expect(events(again, 'notice').some((e) => String(e.message).includes('retrying in'))).toBe(false);
    expect(events(again, 'needs_human')).toEqual([
      expect.objectContaining({ kind: 'failure', role: 'planner', failure: 'usage_limit' }),
    ]);
  });

  it('claude: HTTP 500 → infra after the configured retry; then HTTP 429 → usage_limit; exit 4 each', async ({
    ac,
    expect,
  }) => {
    const { server } = ac;
    ac.config({ infraRetries: 1, backoffSeconds: 0.1 });
    server.openai.push(reply.text(plan('PLAN-V1')));
    // x-should-retry: false, so claude gives up at once instead of its own 10 retries
    server.anthropic.push(
      reply.finalError(500, 'scripted server failure'),
      reply.finalError(500, 'scripted server failure'),
    );
    const r = await ac.run(['run', '--goal', GOAL, '--auto']);
    expect(r.code, describeRun(r)).toBe(4);
    expect(server.anthropic.requests).toHaveLength(2);
    expect(events(r, 'notice').filter((e) => /retrying in \d+ (?:ms|s) \(1\/1\)/.test(String(e.message)))).toHaveLength(
      1,
    );
    expect(events(r, 'needs_human')).toEqual([
      expect.objectContaining({ kind: 'failure', role: 'reviewer', failure: 'infra', phase: 'REVIEW' }),
    ]);

    // A retry-after over 60 s and no x-should-retry: claude itself gives up at once (measured), so this one run
    // also proves what agent-collab-stops-cli-retries-on-real-clis once checked in a run of its own.
    server.anthropic.push(reply.rateLimited('scripted rate limit', 120));
    const again = await ac.run(['run', '--resume', '--auto']);
    expect(again.code, describeRun(again)).toBe(4);
    expect(server.anthropic.requests).toHaveLength(3); // not retried
    expect(events(again, 'needs_human')).toEqual([
      expect.objectContaining({ kind: 'failure', role: 'reviewer', failure: 'usage_limit' }),
    ]);
  });

  it.for(['codex', 'claude'] as const)(
    '%s hangs: the idle timeout stops it (failure idle, exit 4), no CLI process is left',
    { timeout: 90_000 },
    async (cli, { ac, expect }) => {
      const { server, env, repo } = ac;
      // The idle timeout also runs while the CLI starts (no output yet): it leaves a loaded machine time for that.
      ac.config({ planner: cli, reviewer: cli === 'codex' ? 'claude' : 'codex', idleSeconds: 10 });
      (cli === 'codex' ? server.openai : server.anthropic).push(reply.hang(true));
      const run = ac.start(['run', '--goal', GOAL, '--auto']);
      expect(await waitFor(() => server.hanging === 1, 30_000)).toBe(true);
      // while it hangs: agent-collab and the CLI it started (in a process group of its own) are found by the scan
      const during = processesOf(env.root, env.home);
      expect(
        during.some((p) => p.pid !== run.pid),
        JSON.stringify(during),
      ).toBe(true);
      const r = await run.done;
      expect(r.code, describeRun(r)).toBe(4);
      expect(events(r, 'needs_human')).toEqual([
        expect.objectContaining({ kind: 'failure', role: 'planner', failure: 'idle', phase: 'WRITE_PLAN' }),
      ]);
      expect(String(events(r, 'needs_human')[0]!.message)).toContain('produced no output for 10 s');
      // nothing is left of the CLI's process group (the harness only kills agent-collab's own group), and its
      // request ended with it
      expect(await processesLeft(env.root, env.home)).toEqual([]);
      expect(await waitFor(() => server.hanging === 0, 5000)).toBe(true);
      expect(readState(repo).phase).toBe('WRITE_PLAN');
    },
  );
});
