// What the confinement builders hand to bubblewrap and to claude: which paths end up writable, in which order
// bwrap applies them, and the settings/permission rules of a confined claude write turn. (The effects on disk are
// proven with the real bwrap in test/integration/confinement/.)
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildClaudeArgs } from '../../../src/adapters/claude/claude-agent.js';
import {
  bwrapArgs,
  confinementError,
  confinementMounts,
  probeConfinement,
  type PrivateDir,
} from '../../../src/adapters/confinement/index.js';

// Paths that do not exist: the builders fall back to the paths as given.
const repo = '/nonexistent-ac/tmp-root/repo';

describe('bubblewrap mounts', () => {
  it('a repo under a temp dir stays reachable and writable after the private /tmp, with .git and the work dir read-only over it', () => {
    const mounts = confinementMounts({
      repo,
      workdir: '.agent-collab',
      home: '/nonexistent-ac/tmp-root/home',
      stateDirs: ['/nonexistent-ac/tmp-root/home/.codex'],
      tmpDir: '/tmp',
    });
    const order = mounts.map((m) => `${m.mode} ${m.path}`);
    expect(order).toEqual([
      'tmpfs /tmp',
      'tmpfs /var/tmp',
      'tmpfs /dev/shm',
      'ro /nonexistent-ac/tmp-root/home',
      `rw ${repo}`,
      `ro ${repo}/.git`,
      `ro ${repo}/.agent-collab`,
      'rw /nonexistent-ac/tmp-root/home/.codex',
    ]);
  });

  it('a read-only turn gets the repo read-only too; a TMPDIR elsewhere is writable', () => {
    const mounts = confinementMounts({
      repo,
      workdir: '.agent-collab',
      repoReadOnly: true,
      tmpDir: '/nonexistent-ac/t',
    });
    expect(mounts).toContainEqual({ path: repo, mode: 'ro' });
    expect(mounts).toContainEqual({ path: '/nonexistent-ac/t', mode: 'rw' });
    expect(mounts.filter((m) => m.mode === 'rw').map((m) => m.path)).toEqual(['/nonexistent-ac/t']);
  });

  it('the step commit’s box: .git writable, git’s config and hooks read-only over it, the work dir still read-only', () => {
    const mounts = confinementMounts({
      repo,
      workdir: '.agent-collab',
      tmpDir: '/tmp',
      gitWritable: true,
      readOnly: [`${repo}/.git/config`, `${repo}/.husky`],
    });
    expect(mounts.map((m) => `${m.mode} ${m.path}`).slice(3)).toEqual([
      `rw ${repo}`,
      `rw ${repo}/.git`,
      `ro ${repo}/.agent-collab`,
      `ro ${repo}/.husky`,
      `ro ${repo}/.git/config`,
    ]);
  });

  it('argv: whole file system read-only first, fresh /dev, the mounts, its own namespaces without capabilities, then the command', () => {
    const args = bwrapArgs({ repo, workdir: '.agent-collab', tmpDir: '/tmp' }, '/usr/bin/codex', ['exec', '--json']);
    expect(args.slice(0, 5)).toEqual(['--ro-bind', '/', '/', '--dev', '/dev']);
    for (const flag of ['--unshare-user', '--unshare-pid', '--new-session']) expect(args).toContain(flag);
    expect(args.join(' ')).toContain('--cap-drop ALL --proc /proc');
    expect(args.slice(-5)).toEqual(['--die-with-parent', '--', '/usr/bin/codex', 'exec', '--json']);
    expect(args.join(' ')).toContain(`--bind-try ${repo} ${repo} --ro-bind-try ${repo}/.git ${repo}/.git`);
  });
});

describe('host sockets', () => {
  it('/dev/null over each socket after the other mounts; none for one in a private temp dir, one for a home under /tmp', () => {
    const home = '/tmp/nonexistent-ac-home';
    const args = bwrapArgs(
      {
        repo,
        workdir: '.agent-collab',
        tmpDir: '/tmp',
        home,
        sockets: ['/run/docker.sock', '/tmp/tmux-0/default', `${home}/.ssh/cm-host`],
      },
      'x',
      [],
    );
    const masks = args.flatMap((a, i) => (a === '/dev/null' && args[i - 1] === '--ro-bind' ? [args[i + 1]] : []));
    expect(masks).toEqual(['/run/docker.sock', `${home}/.ssh/cm-host`]);
    expect(args.indexOf('/run/docker.sock')).toBeGreaterThan(args.lastIndexOf(`${repo}/.agent-collab`));
    expect(args.indexOf('/run/docker.sock')).toBeLessThan(args.indexOf('--unshare-user'));
  });
});

describe("private dirs (claude's config dir, git dirs claude's sandbox mounts into)", () => {
  let dir = '';
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'ac-private-')));
    mkdirSync(path.join(dir, 'projects'));
    mkdirSync(path.join(dir, 'shell-snapshots'));
    writeFileSync(path.join(dir, 'settings.json'), '{}');
    writeFileSync(path.join(dir, '.credentials.json'), '{}');
    writeFileSync(path.join(dir, 'config'), '');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const argsFor = (privateDir: Omit<PrivateDir, 'path'>) =>
    bwrapArgs({ repo, workdir: '.agent-collab', tmpDir: '/tmp', privateDirs: [{ path: dir, ...privateDir }] }, 'x', [])
      .join(' ')
      .split(' --')
      .map((a) => a.replace(/^-*/, '--'));

  it('scratch: a tmpfs showing each entry read-only, the kept ones writable, the hidden ones not at all; it stays writable', () => {
    const args = argsFor({ keep: ['.credentials.json'], hide: ['shell-snapshots'], scratch: true });
    const from = args.indexOf(`--tmpfs ${dir}`);
    expect(from).toBeGreaterThan(args.indexOf('--tmpfs /tmp')); // the dir lies under the private /tmp here
    expect(args.slice(from, from + 5)).toEqual([
      `--tmpfs ${dir}`,
      `--bind-try ${dir}/.credentials.json ${dir}/.credentials.json`,
      `--ro-bind-try ${dir}/config ${dir}/config`,
      `--ro-bind-try ${dir}/projects ${dir}/projects`,
      `--ro-bind-try ${dir}/settings.json ${dir}/settings.json`,
    ]);
    expect(args).not.toContain(`--remount-ro ${dir}`);
    expect(args.join(' ')).not.toContain('shell-snapshots');
  });

  it('not scratch: read-only placeholders only for the mount points the dir lacks, then the tmpfs made read-only', () => {
    const args = argsFor({ mountPoints: ['config', 'config.lock'] });
    const from = args.indexOf(`--tmpfs ${dir}`);
    expect(args.slice(from + 6, from + 8)).toEqual([`--ro-bind /dev/null ${dir}/config.lock`, `--remount-ro ${dir}`]);
    expect(args.filter((a) => a.includes('/dev/null'))).toHaveLength(1);
  });
});

describe('claude write turn, confined', () => {
  const confined = { repo, workdir: `${repo}/.agent-collab` };
  const hook = { command: 'hook-cmd', env: {}, timeoutSeconds: 30 };

  it("one --settings with the hook AND a fail-closed sandbox (nested in agent-collab's box) whose denyWrite holds the absolute .git and work dir", () => {
    const args = buildClaudeArgs({ prompt: 'Do', access: 'workspace-write' }, null, hook, confined);
    const settings = JSON.parse(args[args.indexOf('--settings') + 1]!) as Record<string, unknown>;
    expect(settings.hooks).toBeDefined();
    expect(settings.sandbox).toEqual({
      enabled: true,
      failIfUnavailable: true,
      allowUnsandboxedCommands: false,
      autoAllowBashIfSandboxed: false,
      enableWeakerNestedSandbox: true,
      filesystem: { denyWrite: [`${repo}/.git`, `${repo}/.agent-collab`] },
    });
    expect(args.filter((a) => a === '--settings')).toHaveLength(1);
  });

  it('file tools: edits allowed under the cwd, denied in .git and the work dir by absolute (//) rules; Bash never allowed by a rule', () => {
    const args = buildClaudeArgs({ prompt: 'Do', access: 'workspace-write' }, null, hook, confined);
    expect(args.slice(args.indexOf('--allowedTools'))).toEqual([
      '--allowedTools',
      'Edit(./**)',
      '--disallowedTools',
      `Edit(/${repo}/.git/**)`,
      `Edit(/${repo}/.agent-collab/**)`,
    ]);
    expect(args.slice(args.indexOf('--allowedTools')).join(' ')).not.toMatch(/Bash/);
  });

  it('a write turn has only the read, file and Bash tools: no CronCreate, EnterWorktree or subagent', () => {
    const args = buildClaudeArgs({ prompt: 'Do', access: 'workspace-write' }, null, hook, confined);
    expect(args[args.indexOf('--tools') + 1]).toBe('Read,Grep,Glob,Edit,Write,NotebookEdit,Bash');
  });

  it('a read-only turn gets no sandbox settings (no Bash at all), only the read-only tool allowlist', () => {
    const args = buildClaudeArgs({ prompt: 'Review', access: 'read-only' }, null, hook, confined);
    expect(args).not.toContain('--settings');
    expect(args.slice(-2)).toEqual(['--tools', 'Read,Grep,Glob']);
  });

  it('unconfined ([safety] sandbox = "off"): the hook settings only, no deny rules', () => {
    const args = buildClaudeArgs({ prompt: 'Do', access: 'workspace-write' }, null, hook, null);
    expect(JSON.parse(args[args.indexOf('--settings') + 1]!)).not.toHaveProperty('sandbox');
    expect(args).not.toContain('--disallowedTools');
  });
});

describe('availability', () => {
  it('not Linux: unavailable, saying so; the error line names the install command and the opt-out', async () => {
    const c = await probeConfinement('darwin');
    expect(c).toEqual({ available: false, reason: 'confinement needs Linux with bubblewrap; this system is darwin' });
    expect(confinementError('bubblewrap (bwrap) is not installed')).toBe(
      "cannot confine the agents' write turns: bubblewrap (bwrap) is not installed. Install it (Debian/Ubuntu: " +
        'apt-get install bubblewrap socat), or turn confinement off with [safety] sandbox = "off" in ' +
        '.agent-collab/config.toml (not recommended)',
    );
  });
});
