import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // installs the pinned claude/codex CLIs into a cache dir outside the repo (reused when present)
    globalSetup: ['test/e2e/global-setup.ts'],
  },
});
