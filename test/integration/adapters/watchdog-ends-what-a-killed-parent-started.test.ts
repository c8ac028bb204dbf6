// The watchdog at work without the rest of agent-collab: a stand-in process runs a CLI through runProcess and is
// killed with SIGKILL; the CLI's group (a member with an empty environment included) and a process that left the
// group for a session of its own (found by its owner tag) end, and stop writing.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { eventually, grows, killAll, processesTagged, sizeOf } from '../orphans-helpers.js';
import { isAlive } from './process-helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const writerPid = (file: string): number => Number(readFileSync(file, 'utf8').split('\n')[0]);

it('SIGKILL of the parent: the watchdog ends the CLI group (an empty-environment member too) and an escaped tagged process', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-watchdog-'));
  const parent = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'fixtures', 'killed-parent.ts'), dir], {
    cwd: path.resolve(here, '../../..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  parent.stdout.on('data', (d: Buffer) => (out += String(d)));
  const cleared = path.join(dir, 'cleared.txt');
  const escaped = path.join(dir, 'escaped.txt');
  let tag = '';
  cleanups.push(() => {
    if (tag) killAll(processesTagged(tag));
    for (const f of [cleared, escaped]) if (sizeOf(f) > 0) killAll([writerPid(f)]);
    rmSync(dir, { recursive: true, force: true });
  });
  expect(await eventually(() => sizeOf(cleared) > 0 && sizeOf(escaped) > 0 && /^tag \S+\n/.test(out), 30_000)).toBe(
    true,
  );
  tag = /^tag (\S+)/.exec(out)![1]!;
  expect(processesTagged(tag)).toContain(writerPid(escaped));
  expect(processesTagged(tag)).not.toContain(writerPid(cleared)); // only its group can find it

  const exited = new Promise((resolve) => parent.once('exit', resolve));
  parent.kill('SIGKILL');
  await exited;

  expect(await eventually(() => !isAlive(writerPid(cleared)) && !isAlive(writerPid(escaped)))).toBe(true);
  expect(await eventually(() => processesTagged(tag).length === 0)).toBe(true);
  expect(await grows(cleared)).toBe(false);
  expect(await grows(escaped)).toBe(false);
});
