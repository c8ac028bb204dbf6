import { describe, expect, it } from 'vitest';
import { buildClaudeArgs, claudeEnv } from '../../../src/adapters/claude/claude-agent.js';
import { buildCodexArgs } from '../../../src/adapters/codex/codex-agent.js';

describe('codex argv', () => {
  it('read-only start: exec --json -C <cwd> with an explicit read-only sandbox, "-" last (the prompt comes on stdin)', () => {
    expect(buildCodexArgs({ prompt: 'Write the plan', cwd: '/repo', access: 'read-only' }, null)).toEqual([
      'exec',
      '--json',
      '-C',
      '/repo',
      '--sandbox',
      'read-only',
      '-',
    ]);
  });

  it('execution start: workspace-write sandbox', () => {
    expect(buildCodexArgs({ prompt: 'Do step 1', cwd: '/repo', access: 'workspace-write' }, null)).toEqual([
      'exec',
      '--json',
      '-C',
      '/repo',
      '--sandbox',
      'workspace-write',
      '-',
    ]);
  });

  it('resume: exec resume --json, sandbox via -c (resume rejects --sandbox), thread id, "-" (prompt on stdin)', () => {
    expect(buildCodexArgs({ prompt: 'Next', cwd: '/repo', access: 'workspace-write' }, 'th-1')).toEqual([
      'exec',
      'resume',
      '--json',
      '-c',
      'sandbox_mode="workspace-write"',
      'th-1',
      '-',
    ]);
    expect(buildCodexArgs({ prompt: 'Review', cwd: '/repo', access: 'read-only' }, 'th-1')).toEqual([
      'exec',
      'resume',
      '--json',
      '-c',
      'sandbox_mode="read-only"',
      'th-1',
      '-',
    ]);
  });

  it('the prompt is never an argument, whatever its size (it goes to stdin)', () => {
    const prompt = `--sandbox danger-full-access ${'x'.repeat(200_000)}`;
    for (const args of [
      buildCodexArgs({ prompt, cwd: '/r', access: 'read-only' }, null),
      buildCodexArgs({ prompt, cwd: '/r', access: 'read-only' }, 't'),
    ]) {
      expect(args.some((a) => a.includes('danger-full-access') || a.length > 1000)).toBe(false);
      expect(args.at(-1)).toBe('-');
    }
  });
});

describe('claude argv', () => {
  it('read-only turn: -p without a prompt (it comes on stdin), stream-json, then an allowlist of read-only tools last', () => {
    expect(buildClaudeArgs({ prompt: 'Review the plan', access: 'read-only' }, null)).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'default',
      '--setting-sources',
      'user',
      '--strict-mcp-config',
      '--tools',
      'Read,Grep,Glob',
    ]);
  });

  it('execution turn: default mode with file edits under the cwd allowed, and no shell command allowed by itself', () => {
    expect(buildClaudeArgs({ prompt: 'Do step 2', access: 'workspace-write' }, null)).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'default',
      '--setting-sources',
      'user',
      '--strict-mcp-config',
      '--tools',
      'Read,Grep,Glob,Edit,Write,NotebookEdit,Bash',
      '--allowedTools',
      'Edit(./**)',
    ]);
  });

  it('resume: --resume <session_id>; the prompt is never an argument', () => {
    const args = buildClaudeArgs({ prompt: 'Again', access: 'read-only' }, 'sess-9');
    expect(args).not.toContain('Again');
    expect(args.slice(0, 6)).toEqual(['-p', '--output-format', 'stream-json', '--verbose', '--resume', 'sess-9']);
    expect(args.at(-1)).toBe('Read,Grep,Glob');
  });

  it('drops the variables that make claude think it runs nested inside Claude Code, and turns its auto memory off', () => {
    expect(claudeEnv({ PATH: '/bin', CLAUDECODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli', ANTHROPIC_API_KEY: 'k' })).toEqual(
      { PATH: '/bin', ANTHROPIC_API_KEY: 'k', CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' },
    );
  });
});

describe('[roles] model and effort reach each CLI with its own flags', () => {
  const MODEL = { model: 'gpt-5.5-mini', effort: 'high' };

  it('codex: -m and -c model_reasoning_effort before the prompt, on a start and on a resume', () => {
    const start = buildCodexArgs({ prompt: 'p', cwd: '/repo', access: 'read-only' }, null, null, MODEL);
    expect(start).toEqual([
      'exec',
      '--json',
      '-C',
      '/repo',
      '--sandbox',
      'read-only',
      '-m',
      'gpt-5.5-mini',
      '-c',
      'model_reasoning_effort="high"',
      '-',
    ]);
    const resume = buildCodexArgs({ prompt: 'p', cwd: '/repo', access: 'read-only' }, 'th-1', null, MODEL);
    expect(resume.slice(-6)).toEqual(['-m', 'gpt-5.5-mini', '-c', 'model_reasoning_effort="high"', 'th-1', '-']);
  });

  it('claude: --model and --effort before the variadic tool flags (which would swallow them)', () => {
    const args = buildClaudeArgs({ prompt: 'p', access: 'workspace-write' }, 's-1', null, null, {
      model: 'opus',
      effort: 'max',
    });
    const at = (flag: string): number => args.indexOf(flag);
    expect(args[at('--model') + 1]).toBe('opus');
    expect(args[at('--effort') + 1]).toBe('max');
    expect(at('--effort')).toBeLessThan(at('--tools'));
    expect(at('--model')).toBeLessThan(at('--allowedTools'));
  });

  it('empty model and effort: no flag at all (the CLI keeps its default)', () => {
    const none = { model: '', effort: '' };
    const claude = buildClaudeArgs({ prompt: 'p', access: 'read-only' }, null, null, null, none);
    const codex = buildCodexArgs({ prompt: 'p', cwd: '/repo', access: 'read-only' }, null, null, none);
    expect(claude).toEqual(buildClaudeArgs({ prompt: 'p', access: 'read-only' }, null));
    expect(codex).toEqual(buildCodexArgs({ prompt: 'p', cwd: '/repo', access: 'read-only' }, null));
    expect([...claude, ...codex].some((a) => /^(--model|--effort|-m)$|reasoning/.test(a))).toBe(false);
  });
});
