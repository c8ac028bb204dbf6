import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { readWork, tempRepo } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('a CLI missing at run time', () => {
  it('is named with the command that installs it; the run is saved and nothing else breaks', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    const PATH = `${path.dirname(process.execPath)}:/usr/bin:/bin`;
    const r = await runCli(['run', '--goal', 'g', '--auto', '--json'], {
      cwd: repo.dir,
      home: repo.home,
      env: { PATH },
    }).done;
    expect(r.code).toBe(4);
    expect(r.stderr).toBe('');
    const waiting = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((e) => e.event === 'needs_human');
    expect(waiting).toMatchObject({ kind: 'failure', failure: 'missing_binary', role: 'planner' });
    expect(String(waiting!.message)).toMatch(/^codex is not installed or not on PATH .*npm install -g @openai\/codex$/);
    expect(String(waiting!.message)).not.toContain('\n');
    expect(JSON.parse(readWork(repo.dir, 'state.json'))).toMatchObject({
      phase: 'WRITE_PLAN',
      inflight: null,
      goal: 'g',
    });
  });
});
