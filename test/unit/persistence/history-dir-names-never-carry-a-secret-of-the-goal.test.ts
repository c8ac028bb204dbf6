// A run archived by the process that started it (a cancel in the TUI, `n` after DONE) has its goal in memory with
// the real values: the `history/<date>-<slug>` dir made from it, and the "Run archived to …" notice naming that
// dir, must not hold a token of the goal (lowercased and dashed, the redactor no longer knows it in the path).
import { readdir } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { configSchema } from '../../../src/persistence/config-schema.js';
import { archiveRun } from '../../../src/persistence/history.js';
import { resolvePaths } from '../../../src/persistence/paths.js';
import { tempDir } from './tmp-dir.js';

const TOKEN = `ghp_${'aB3dE5gH7jK9mN1pQ3sT'}${'5vX7zA9cE1gI3kM5'}`;

describe('archiveRun and a secret in the goal', () => {
  it('names the history dir without a token, a password or a secret variable’s value of the goal', async () => {
    vi.stubEnv('DEPLOY_TOKEN', 'correcthorsebattery');
    try {
      const paths = resolvePaths(await tempDir(), configSchema.parse({}));
      const date = new Date(2026, 1, 5);
      const a = await archiveRun(paths, { goal: `rotate ${TOKEN} now`, date });
      const b = await archiveRun(paths, { goal: 'login with correcthorsebattery please', date });
      const c = await archiveRun(paths, { goal: 'set password=hunter2hunter2 in db', date });
      expect([a, b, c].map((d) => d.slice(paths.history.length + 1))).toEqual([
        '2026-02-05-rotate-now',
        '2026-02-05-login-with-please',
        '2026-02-05-set-password-in-db',
      ]);
      expect((await readdir(paths.history)).join(' ')).not.toMatch(/ab3de5|correcthorse|hunter2/);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
