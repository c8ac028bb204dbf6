// The bundle keeps js-yaml from loading esprima at start-up (scripts/bundle.mjs, ~12 ms of every start): a whole run
// of the built CLI asks for no esprima module, and plan.md / comments.md frontmatter is still written and read.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { readWork, tempRepoWithFakeScript } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('the built CLI', () => {
  it('runs to DONE without loading esprima, with frontmatter in plan.md and comments.md', async () => {
    const repo = tempRepoWithFakeScript({ rules: [{ when: { kind: 'review' }, do: { verdict: 'APPROVED', text: 'Fine.' } }] });
    cleanup = repo.cleanup;
    // A preload that reports every module name resolved through require (the bundle's only way to reach esprima).
    const preload = path.join(repo.home, 'watch-require.cjs');
    writeFileSync(
      preload,
      "const Module = require('module'); const orig = Module._resolveFilename; Module._resolveFilename = function (request, ...rest) { if (/esprima/.test(request)) process.stderr.write('REQUIRED ' + request + '\\n'); return orig.call(this, request, ...rest); };\n",
    );
    const r = await runCli(['run', '--goal', 'g', '--auto', '--auto-approve', '--json'], { cwd: repo.dir, home: repo.home, env: { NODE_OPTIONS: `--require ${preload}` } }).done;
    expect(r.stderr).not.toContain('REQUIRED');
    expect(r.code).toBe(0);
    expect(readWork(repo.dir, 'plan.md')).toMatch(/^---\n(.*\n)*status: approved\n/);
    expect(readWork(repo.dir, 'comments.md')).toMatch(/^---\n(.*\n)*status: APPROVED\n/);
  });
});
