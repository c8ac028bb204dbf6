// Which parts of claude's config dir its box shows writable: only the session dir of the turn's cwd, never the
// auto-memory dir inside it nor another project's dir. (The effects on disk, with the real bwrap, are proven in
// test/integration/confinement/claude-runs-inside-the-box.test.ts and the e2e suite.)
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeConfigBox, claudeProjectKey } from '../../../src/adapters/claude/claude-box.js';
import { bwrapArgs } from '../../../src/adapters/confinement/index.js';

describe("claude's project dir name", () => {
  it('is the path with every character but ASCII letters and digits turned into -', () => {
    expect(claudeProjectKey('/home/me/my repo.v2')).toBe('-home-me-my-repo-v2');
  });

  it("over 200 characters: cut, with the path's hash appended as claude 2.1.197 does", () => {
    // expected value computed with the functions copied from the claude 2.1.197 binary ($E, fNu, jCe)
    const long = '/work/' + 'very-long-directory-name/'.repeat(9) + 'repo';
    expect(claudeProjectKey(long)).toBe(`${long.replace(/[^a-zA-Z0-9]/g, '-').slice(0, 200)}-n0hlv1`);
  });
});

describe("claude's config dir in the box", () => {
  let home = '';
  let repo = '';
  beforeEach(() => {
    home = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'ac-claude-home-')));
    repo = path.join(home, 'repo');
    mkdirSync(path.join(home, '.claude', 'projects', 'other', 'memory'), { recursive: true });
    mkdirSync(repo);
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('the session dir of the cwd is writable; the projects dir around it and the memory dir in it are read-only', () => {
    const projects = path.join(home, '.claude', 'projects');
    const sessions = path.join(projects, claudeProjectKey(repo));
    const box = claudeConfigBox({ HOME: home }, repo);
    expect(box.stateDirs).toEqual([sessions]);
    // the memory dir is there as a mount point, empty
    expect(existsSync(path.join(sessions, 'memory'))).toBe(true);
    const args = bwrapArgs({ repo, workdir: '.agent-collab', tmpDir: '/tmp', ...box }, 'x', [])
      .join(' ')
      .split(' --')
      .map((a) => a.replace(/^-*/, '--'));
    const at = (a: string) => {
      expect(args).toContain(a);
      return args.indexOf(a);
    };
    const projectsView = at(`--tmpfs ${projects}`);
    expect(at(`--ro-bind-try ${projects}/other ${projects}/other`)).toBeGreaterThan(projectsView);
    const projectsReadOnly = at(`--remount-ro ${projects}`);
    const sessionsWritable = at(`--bind-try ${sessions} ${sessions}`);
    expect(sessionsWritable).toBeGreaterThan(projectsReadOnly);
    const memoryView = at(`--tmpfs ${sessions}/memory`);
    expect(memoryView).toBeGreaterThan(sessionsWritable);
    expect(at(`--remount-ro ${sessions}/memory`)).toBeGreaterThan(memoryView);
    expect(args.filter((a) => a.startsWith('--bind') && a.includes(projects))).toEqual([
      `--bind-try ${sessions} ${sessions}`,
    ]);
  });
});
