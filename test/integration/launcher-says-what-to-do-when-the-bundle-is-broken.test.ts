// The launcher (dist/agent-collab.cjs) with its main bundle missing or damaged: one line that says to reinstall,
// exit 1, no stack trace. Run from a copy of dist/, so the build the other tests use stays whole.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runToEnd } from '../helpers/cli.js';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the launcher, and the name of the main bundle it looks for next to it. */
function launcherCopy(): { dir: string; main: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-collab-launcher-'));
  temps.push(dir);
  copyFileSync(path.join(DIST, 'agent-collab.cjs'), path.join(dir, 'agent-collab.cjs'));
  const main = readdirSync(DIST).find((n) => /^main-[0-9a-f]+\.cjs$/.test(n));
  if (!main) throw new Error('no main bundle in dist/: run npm run build');
  return { dir, main };
}

function launch(dir: string): ReturnType<typeof runToEnd> {
  return runToEnd(process.execPath, [path.join(dir, 'agent-collab.cjs'), '--version'], { cwd: dir, env: { ...process.env, AGENT_COLLAB_CACHE_DIR: '0' } });
}

describe('the launcher', () => {
  it('without its main bundle: one line saying to reinstall, exit 1', async () => {
    const { dir, main } = launcherCopy();
    const r = await launch(dir);
    expect(r).toEqual({ code: 1, stdout: '', stderr: `agent-collab: cannot read ${path.join(dir, main)} (ENOENT); reinstall agent-collab\n` });
  });

  it('with a damaged main bundle: one line saying to reinstall, exit 1', async () => {
    const { dir, main } = launcherCopy();
    writeFileSync(path.join(dir, main), '"use strict";function (');
    const r = await launch(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^agent-collab: ${path.join(dir, main).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} does not compile \\(.+\\); reinstall agent-collab\\n$`));
  });
});
