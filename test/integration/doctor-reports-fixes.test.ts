import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitVersionCheck } from '../../src/modes/doctor.js';
import { runCli } from '../helpers/cli.js';
import { tempRepo } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function fakeBin(dir: string, name: string, version: string): void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\necho "${version}"\n`);
  chmodSync(file, 0o755);
}

describe('agent-collab doctor', () => {
  it('all in place → versions listed, exit 0', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    const bin = path.join(repo.home, 'bin');
    fakeBin(bin, 'codex', 'codex-cli 0.169.0');
    fakeBin(bin, 'claude', '2.1.197 (Claude Code)');
    const r = await runCli(['doctor'], { cwd: repo.dir, home: repo.home, env: { PATH: `${bin}:${process.env.PATH}` } })
      .done;
    expect(r.stdout).toContain('ok      codex: codex: codex-cli 0.169.0 (planner)');
    expect(r.stdout).toContain('ok      claude: claude: 2.1.197 (Claude Code) (reviewer)');
    expect(r.stdout).toContain('ok      git identity');
    expect(r.stdout).toMatch(/ok {6}git version: \d+\.\d+/);
    expect(r.code).toBe(0);
  });

  it('a git older than 2.26 is a problem with the fix; newer ones pass', () => {
    expect(gitVersionCheck('git version 2.25.1')).toMatchObject({
      ok: false,
      detail: '2.25 is too old: step commits need git 2.26 or newer',
    });
    expect(gitVersionCheck('git version 2.39.5')).toMatchObject({ ok: true, detail: '2.39' });
    expect(gitVersionCheck('git version 3.0.0')).toMatchObject({ ok: true });
    expect(gitVersionCheck('nonsense')).toMatchObject({ ok: false, fix: 'install git 2.26 or newer' });
  });

  it('each problem comes with the command that fixes it; exit 1', async () => {
    const repo = tempRepo('[agents.claude]\ncommand = "/nonexistent/claude"\n');
    cleanup = repo.cleanup;
    const r = await runCli(['doctor'], {
      cwd: repo.dir,
      home: repo.home,
      env: { PATH: path.dirname(process.execPath) + ':/usr/bin:/bin' },
    }).done;
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /PROBLEM codex: codex: not found \(needed as planner\)\n\s+fix: npm install -g @openai\/codex\n/,
    );
    expect(r.stdout).toMatch(
      /PROBLEM claude: \/nonexistent\/claude: not found \(needed as reviewer\)\n\s+fix: npm install -g @anthropic-ai\/claude-code, or fix \[agents\.claude\] command in the config\n/,
    );
    expect(r.stdout).toMatch(/problem\(s\) found\.\n$/);
  });

  it('outside a git repo, or with a broken config, says what to do', async () => {
    const repo = tempRepo('[workflow]\nmax_iterations = 0\n');
    cleanup = repo.cleanup;
    const outside = await runCli(['doctor'], { cwd: repo.home, home: repo.home }).done;
    expect(outside.code).toBe(1);
    expect(outside.stdout).toMatch(/PROBLEM git repository: .* is not inside a git repository.*\n\s+fix: git init/);
    const broken = await runCli(['doctor'], { cwd: repo.dir, home: repo.home }).done;
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(
      /PROBLEM config: config error in .*config\.toml: workflow\.max_iterations must be an integer ≥ 1 \(got 0\)/,
    );
  });
});
