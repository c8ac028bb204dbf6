// run() hands its caller two things: the events (redacted like `--json`) and the result. The result is built from
// the run's state in memory, which holds the real values: a token an agent wrote into a step's title must be hidden
// there as in the events, or a caller that logs the result leaks what the NDJSON never shows.
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../../src/index.js';
import type { RunEvent } from '../../../src/index.js';
import { apiRepo, type ApiRepo } from './api-helpers.js';

const TOKEN = 'ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5';
const PLAN = `# Task: rotate\n\n## Goal\nrotate\n\n## Steps\n1. [ ] Put ${TOKEN} into the deploy script\n`;

let repo: ApiRepo | undefined;
afterEach(() => repo?.cleanup());

describe('run() of the library API and a secret in the run', () => {
  it('hides a token of a step title in the result as the events do', async () => {
    repo = apiRepo({ rules: [{ when: { kind: 'write_plan' }, do: { text: PLAN } }] });
    const events: RunEvent[] = [];
    const result = await run({
      cwd: repo.dir,
      goal: 'rotate the deploy key',
      auto: true,
      autoApprove: true,
      config: repo.config,
      onEvent: (e) => events.push(e),
    });
    expect(result.steps.length).toBe(1);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(result.steps[0]!.title).toContain('[REDACTED:github-token]');
  }, 60_000);
});
