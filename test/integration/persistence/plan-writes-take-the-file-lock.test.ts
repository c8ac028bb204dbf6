// plan.md and comments.md are written under `<file>.lock` (proper-lockfile): taken at once when free, waited for
// while another holder has it, taken over when its holder died long ago; the lock is gone after each write.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lock } from 'proper-lockfile';
import { afterEach, describe, expect, it } from 'vitest';
import { readPlan, writePlan } from '../../../src/persistence/plan-files.js';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function planFile(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-collab-lock-'));
  temps.push(dir);
  return path.join(dir, 'plan.md');
}

describe('plan.md writes and the file lock', () => {
  it('a free lock is taken and let go: the plan is written and no lock is left', async () => {
    const file = planFile();
    await writePlan(file, { body: '## Steps\n1. [ ] One\n', status: 'reviewing', iteration: 1 });
    expect((await readPlan(file))?.body).toBe('## Steps\n1. [ ] One\n');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('waits while another holder has the lock, then writes', async () => {
    const file = planFile();
    const release = await lock(file, { lockfilePath: `${file}.lock`, realpath: false });
    const order: string[] = [];
    const writing = writePlan(file, { body: 'mine\n', status: 'reviewing', iteration: 1 }).then(() => order.push('written'));
    await new Promise((r) => setTimeout(r, 150));
    expect(existsSync(file)).toBe(false); // still waiting
    order.push('released');
    await release();
    await writing;
    expect(order).toEqual(['released', 'written']);
    expect(readFileSync(file, 'utf8')).toContain('mine');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('takes over a lock whose holder stopped updating it long ago (a killed process)', async () => {
    const file = planFile();
    mkdirSync(`${file}.lock`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    await writePlan(file, { body: 'after a crash\n', status: 'reviewing', iteration: 2 });
    expect((await readPlan(file))?.body).toBe('after a crash\n');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});
