// Every codex turn and every claude workspace-write turn carries agent-collab's PreToolUse hook, in the exact shape
// each CLI reads; claude read-only turns (no Bash at all) carry none; claude is never told to allow Bash by itself
// (so a failing hook leaves claude's -p default: deny).
import { describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { buildClaudeArgs, claudeFlavor } from '../../../src/adapters/claude/claude-agent.js';
import { buildCodexArgs, codexFlavor } from '../../../src/adapters/codex/codex-agent.js';
import type { HookLaunch } from '../../../src/adapters/command-hook/endpoint.js';
import { shellLine } from '../../../src/adapters/command-hook/bash-client.js';
import type { AgentTurn } from '../../../src/core/types.js';

const hook: HookLaunch = {
  // Quotes of both kinds, a newline and `$`: what the bash client's command line holds.
  command: shellLine([
    '/bin/bash',
    '--norc',
    '-p',
    '-c',
    `IFS= read -r -d '' input\nprintf '%s' "$input" >&3`,
    'agent-collab-hook',
    '41234',
    'planner',
    '615',
  ]),
  env: { AGENT_COLLAB_HOOK_TOKEN: 'secret-token', AGENT_COLLAB_HOOK_REPLY_KEY: 'secret-reply-key' },
  timeoutSeconds: 630,
};

function turn(access: AgentTurn['access']): AgentTurn {
  return { prompt: 'Go', cwd: '/repo', access, meta: { role: 'planner', kind: 'execute_step', iteration: 0, step: 1 } };
}

describe('claude with the hook', () => {
  it('workspace-write turn: --settings holds a Bash PreToolUse command hook with the CLI timeout', () => {
    const args = buildClaudeArgs({ prompt: 'Go', access: 'workspace-write' }, 'sess-1', hook);
    expect(args.slice(0, 6)).toEqual(['-p', '--output-format', 'stream-json', '--verbose', '--resume', 'sess-1']);
    const settings = JSON.parse(args[args.indexOf('--settings') + 1]!) as unknown;
    expect(settings).toEqual({
      autoMemoryEnabled: false,
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook.command, timeout: 630 }] }] },
    });
    expect(args).not.toContain('--dangerously-skip-permissions');
    expect(args).not.toContain('bypassPermissions');
    expect(args).not.toContain('acceptEdits');
    expect(args.slice(args.indexOf('--allowedTools') + 1)).toEqual(['Edit(./**)']);
    expect(args.join(' ')).not.toMatch(/secret-/); // the hook's token and reply key stay in the environment
  });

  it('read-only turn: no --settings (Bash is not among its tools, the hook could never fire) and the adapter does not even ask for it', () => {
    const args = buildClaudeArgs({ prompt: 'Go', access: 'read-only' }, 'sess-1', hook);
    expect(args).not.toContain('--settings');
    expect(args.join(' ')).not.toContain('hook');
    expect(args.slice(args.indexOf('--permission-mode'))).toEqual([
      '--permission-mode',
      'default',
      '--setting-sources',
      'user',
      '--strict-mcp-config',
      '--tools',
      'Read,Grep,Glob',
    ]);
    expect(claudeFlavor.needsHook?.(turn('read-only'))).toBe(false);
    expect(claudeFlavor.needsHook?.(turn('workspace-write'))).toBe(true);
  });
});

describe('codex with the hook', () => {
  const hookOverride = (args: string[]) => {
    const i = args.findIndex((a, k) => args[k - 1] === '-c' && a.startsWith('hooks.PreToolUse='));
    expect(i).toBeGreaterThan(0);
    return parseToml(args[i]!) as { hooks: { PreToolUse: unknown } };
  };

  it('exec: -c hooks.PreToolUse (valid TOML, the command string intact) and --dangerously-bypass-hook-trust before "-" (the prompt on stdin)', () => {
    const args = buildCodexArgs({ prompt: 'Go', cwd: '/repo', access: 'workspace-write' }, null, hook);
    expect(hookOverride(args).hooks.PreToolUse).toEqual([
      { matcher: 'Bash', hooks: [{ type: 'command', command: hook.command, timeout: 630 }] },
    ]);
    expect(args).toContain('--dangerously-bypass-hook-trust');
    expect(args.at(-1)).toBe('-');
    expect(args.slice(0, 6)).toEqual(['exec', '--json', '-C', '/repo', '--sandbox', 'workspace-write']);
    expect(args.join(' ')).not.toMatch(/secret-/); // the hook's token and reply key stay in the environment
  });

  it('exec resume: the same hook and flag, then the thread id and "-" (the prompt on stdin)', () => {
    const args = buildCodexArgs({ prompt: 'Again', cwd: '/repo', access: 'read-only' }, 'th-1', hook);
    expect(hookOverride(args).hooks.PreToolUse).toEqual([
      { matcher: 'Bash', hooks: [{ type: 'command', command: hook.command, timeout: 630 }] },
    ]);
    expect(args).toContain('--dangerously-bypass-hook-trust');
    expect(args.slice(-2)).toEqual(['th-1', '-']);
    expect(args.slice(0, 5)).toEqual(['exec', 'resume', '--json', '-c', 'sandbox_mode="read-only"']);
  });

  it('every turn needs the hook, read-only too (codex can run commands in its read-only sandbox)', () => {
    expect(codexFlavor.needsHook?.(turn('read-only')) ?? true).toBe(true);
    expect(codexFlavor.needsHook?.(turn('workspace-write')) ?? true).toBe(true);
  });

  it('no hook: no hook flags', () => {
    expect(buildCodexArgs({ prompt: 'Go', cwd: '/r', access: 'read-only' }, null).join(' ')).not.toContain('hook');
  });
});
