// The TUI runs on React's production build (the development build is several times slower on a long stream),
// without leaving NODE_ENV set for the agents' child processes.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CHECK = `
import { createRequire } from 'node:module';
const { loadUi } = await import(${JSON.stringify(path.join(ROOT, 'src/ui/load-ui.ts'))});
const ui = await loadUi();
const cache = createRequire(import.meta.url).cache;
const loaded = (name) => Object.entries(cache).some(([k, m]) => k.endsWith(name) && m.loaded);
console.log(JSON.stringify({
  env: process.env.NODE_ENV ?? null,
  production: loaded('react.production.js') && loaded('react-reconciler.production.js'),
  development: loaded('react.development.js') || loaded('react-reconciler.development.js'),
  app: typeof ui.App,
  fetch: typeof globalThis.fetch,
}));
`;

function check(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const clean = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete clean[k];
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHECK], {
    cwd: ROOT,
    env: clean,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

describe('loading the TUI', () => {
  it('uses the production build when NODE_ENV is unset, and leaves it unset (and fetch in place)', () => {
    expect(check({ NODE_ENV: undefined })).toEqual({
      env: null,
      production: true,
      development: false,
      app: 'function',
      fetch: 'function',
    });
  });

  it('respects an explicit NODE_ENV', () => {
    expect(check({ NODE_ENV: 'development' })).toEqual({
      env: 'development',
      production: false,
      development: true,
      app: 'function',
      fetch: 'function',
    });
  });
});

describe('loading the TUI with CI set in the terminal', () => {
  it("Ink still draws live (it reads CI once, while it loads), and CI is set again for the agents' commands", () => {
    const script = `
const { loadUi } = await import(${JSON.stringify(path.join(ROOT, 'src/ui/load-ui.ts'))});
await loadUi();
const { default: inkSeesCi } = await import('is-in-ci');
console.log(JSON.stringify({ inkSeesCi, ci: process.env.CI ?? null, ciLong: process.env.CONTINUOUS_INTEGRATION ?? null }));
`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      env: { ...process.env, CI: 'true', CONTINUOUS_INTEGRATION: '1' },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}')).toEqual({
      inkSeesCi: false,
      ci: 'true',
      ciLong: '1',
    });
  });
});
