import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPackageRoot } from '../../src/package-root.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A copy of bin/agent-collab in a package dir of its own, with `dist` as given. */
function install(cli: string | null): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ac-bin-'));
  dirs.push(root);
  mkdirSync(path.join(root, 'bin'));
  writeFileSync(path.join(root, 'package.json'), '{"type":"module"}');
  copyFileSync(fromPackageRoot('bin/agent-collab'), path.join(root, 'bin', 'agent-collab'));
  if (cli !== null) {
    mkdirSync(path.join(root, 'dist'));
    writeFileSync(path.join(root, 'dist', 'cli.js'), cli);
  }
  return path.join(root, 'bin', 'agent-collab');
}

describe('bin/agent-collab', () => {
  it.for([
    ['missing', null],
    ['broken', 'this is not javascript ('],
  ] as const)('with dist/cli.js %s: one line that says to run npm run build, exit 1, no stack trace', ([, cli]) => {
    const r = spawnSync(process.execPath, [install(cli), '--version'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^agent-collab: cannot load its build \(.+\); run `npm run build` in /);
  });

  it('runs the built CLI', () => {
    const r = spawnSync(
      process.execPath,
      [install('console.log("built cli ran", process.argv.slice(2).join(" "));'), 'x'],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('built cli ran x\n');
  });
});
