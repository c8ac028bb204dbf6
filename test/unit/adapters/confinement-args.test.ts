// What the confinement builders hand to bubblewrap and to claude: which paths end up writable, in which order
// bwrap applies them, and the settings/permission rules of a confined claude write turn. (The effects on disk are
// proven with the real bwrap in test/integration/confinement/.)
import { describe, expect, it } from 'vitest';
import { buildClaudeArgs } from '../../../src/adapters/claude/claude-agent.js';
import {
  bwrapArgs,
  confinementError,
  confinementMounts,
  probeConfinement,
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

describe('claude write turn, confined', () => {
  const confined = { repo, workdir: `${repo}/.agent-collab` };
  const hook = { command: 'hook-cmd', env: {}, timeoutSeconds: 30 };

  it('one --settings with the hook AND a fail-closed sandbox whose denyWrite holds the absolute .git and work dir', () => {
    const args = buildClaudeArgs({ prompt: 'Do', access: 'workspace-write' }, null, hook, confined);
    const settings = JSON.parse(args[args.indexOf('--settings') + 1]!) as Record<string, unknown>;
    expect(settings.hooks).toBeDefined();
    expect(settings.sandbox).toEqual({
      enabled: true,
      failIfUnavailable: true,
      allowUnsandboxedCommands: false,
      autoAllowBashIfSandboxed: false,
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
