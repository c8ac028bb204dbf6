import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const tsx = (dir: string): string[] => [`test/${dir}/**/*.test.ts`, `test/${dir}/**/*.test.tsx`];

// Three tiers, one project each: `vitest run --project unit` runs one tier, `vitest run` runs all three.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default (cores - 1) runs one file at a time on 2 cores; the integration and e2e files spend much of
    // their time waiting on the processes they start (git, the CLIs, the scripted server): on 2 cores a CI run kept
    // them busy 56% of the time with two files at once (measured), so three run at once.
    maxWorkers: Math.max(3, availableParallelism()),
    projects: [
      // Pure: no processes, no sockets (the setup file makes them throw). The files share worker threads and their
      // modules (no isolation), which keeps the tier fast; mocks, stubbed env vars and fake timers are undone after
      // each test so no file sees another's.
      {
        extends: true,
        test: {
          name: 'unit',
          include: tsx('unit'),
          setupFiles: ['test/unit/setup-pure.ts'],
          pool: 'threads',
          isolate: false,
          restoreMocks: true,
          unstubEnvs: true,
          unstubGlobals: true,
        },
      },
      // processes, git, fake agents, real files in temp dirs; needs `npm run build` for the dist/ tests
      {
        extends: true,
        test: {
          name: 'integration',
          include: tsx('integration'),
          setupFiles: ['test/integration/setup-terminal.ts'],
          // Each worker process runs its files one after another with the modules it already loaded: a fresh process
          // per file re-imported Ink, React and src/ each time (import 130 s -> 42 s, CPU -40% on test/integration/ui,
          // measured). What one file changes is undone after each test, as in the unit tier.
          isolate: false,
          restoreMocks: true,
          unstubEnvs: true,
          unstubGlobals: true,
        },
      },
      // the real pinned CLIs, installed into a cache dir outside the repo (reused when present); a whole run of
      // agent-collab on them takes several real CLI starts, so a loaded 2-core machine needs more than 30 s
      {
        extends: true,
        test: { name: 'e2e', include: tsx('e2e'), globalSetup: ['test/e2e/global-setup.ts'], testTimeout: 120_000 },
      },
    ],
  },
});
