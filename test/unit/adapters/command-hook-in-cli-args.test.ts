// Every turn of both CLIs carries agent-collab's PreToolUse hook, in the exact shape each CLI reads, and claude is
// never told to allow Bash by itself (so a failing hook leaves claude's -p default: deny).
import { describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { buildClaudeArgs } from '../../../src/adapters/claude/claude-agent.js';
import { buildCodexArgs } from '../../../src/adapters/codex/codex-agent.js';
import { CommandApprovals } from '../../../src/adapters/command-hook/approvals.js';
import type { HookEndpoint } from '../../../src/adapters/command-hook/endpoint.js';

const hook: HookEndpoint = {
  role: 'planner',
  command: `/usr/bin/node '/opt/agent collab/hook-main.js' /tmp/ac-hook-x/hook.sock planner tok "quoted" 615000`,
  timeoutSeconds: 630,
  approvals: new CommandApprovals(),
};

describe('claude with the hook', () => {
  it.for(['read-only', 'workspace-write'] as const)('%s turn: --settings holds a Bash PreToolUse command hook with the CLI timeout', (access, { expect }) => {
    const args = buildClaudeArgs({ prompt: 'Go', access }, 'sess-1', hook);
    expect(args.slice(0, 7)).toEqual(['-p', 'Go', '--output-format', 'stream-json', '--verbose', '--resume', 'sess-1']);
    const settings = JSON.parse(args[args.indexOf('--settings') + 1]!) as unknown;
    expect(settings).toEqual({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook.command, timeout: 630 }] }] } });
    expect(args).not.toContain('--dangerously-skip-permissions');
    expect(args).not.toContain('bypassPermissions');
    expect(args).not.toContain('acceptEdits');
    const allowed = args.indexOf('--allowedTools') >= 0 ? args.slice(args.indexOf('--allowedTools') + 1) : [];
    expect(allowed.some((t) => t.startsWith('Bash'))).toBe(false);
  });
});

describe('codex with the hook', () => {
  const hookOverride = (args: string[]) => {
    const i = args.findIndex((a, k) => args[k - 1] === '-c' && a.startsWith('hooks.PreToolUse='));
    expect(i).toBeGreaterThan(0);
    return parseToml(args[i]!) as { hooks: { PreToolUse: unknown } };
  };

  it('exec: -c hooks.PreToolUse (valid TOML, the command string intact) and --dangerously-bypass-hook-trust before the prompt', () => {
    const args = buildCodexArgs({ prompt: 'Go', cwd: '/repo', access: 'workspace-write' }, null, hook);
    expect(hookOverride(args).hooks.PreToolUse).toEqual([{ matcher: 'Bash', hooks: [{ type: 'command', command: hook.command, timeout: 630 }] }]);
    expect(args).toContain('--dangerously-bypass-hook-trust');
    expect(args.at(-1)).toBe('Go');
    expect(args.slice(0, 6)).toEqual(['exec', '--json', '-C', '/repo', '--sandbox', 'workspace-write']);
  });

  it('exec resume: the same hook and flag, then the thread id and the prompt', () => {
    const args = buildCodexArgs({ prompt: 'Again', cwd: '/repo', access: 'read-only' }, 'th-1', hook);
    expect(hookOverride(args).hooks.PreToolUse).toEqual([{ matcher: 'Bash', hooks: [{ type: 'command', command: hook.command, timeout: 630 }] }]);
    expect(args).toContain('--dangerously-bypass-hook-trust');
    expect(args.slice(-2)).toEqual(['th-1', 'Again']);
    expect(args.slice(0, 5)).toEqual(['exec', 'resume', '--json', '-c', 'sandbox_mode="read-only"']);
  });

  it('no hook: no hook flags', () => {
    expect(buildCodexArgs({ prompt: 'Go', cwd: '/r', access: 'read-only' }, null).join(' ')).not.toContain('hook');
  });
});
