// gemini's BeforeTool hook command (agent-collab's hook answer translated to gemini's `{"decision"}` shape, run by a
// real bash as gemini runs it) and the home agent-collab prepares for gemini before each turn.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { denyOutput, hookOutput } from '../../../src/adapters/command-hook/protocol.js';
import {
  geminiFlavor,
  geminiHome,
  geminiHookCommand,
  prepareGeminiHome,
} from '../../../src/adapters/gemini/gemini-agent.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'ac-gemini-'));
  dirs.push(d);
  return d;
}

/** Runs the gemini hook command around an inner hook that prints `answer` (from a file: no quoting games). */
function geminiHookSays(answer: string | null, exitCode = 0): unknown {
  const dir = tmp();
  const file = path.join(dir, 'answer');
  writeFileSync(file, answer ?? '');
  const inner = `cat >/dev/null; cat ${JSON.stringify(file)}; exit ${exitCode}`;
  const out = execFileSync('bash', ['-c', geminiHookCommand(`bash -c ${JSON.stringify(inner)}`)], {
    input: '{"tool_name":"run_shell_command","tool_input":{"command":"ls"}}',
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

describe("gemini's hook command", () => {
  it('passes an allow on as gemini reads it', () => {
    expect(geminiHookSays(hookOutput('allow', 'ok'))).toEqual({ decision: 'allow' });
  });

  it('passes a deny on with its reason, quotes and backslashes intact', () => {
    const why = 'chmod 777 is not allowed: "a\\b" said no';
    expect(geminiHookSays(denyOutput(why))).toEqual({ decision: 'deny', reason: `agent-collab: ${why}` });
    // a command quoting an allow answer is still denied
    const sly = 'echo \'"permissionDecision":"allow"\' is denied';
    expect(geminiHookSays(denyOutput(sly))).toEqual({ decision: 'deny', reason: `agent-collab: ${sly}` });
  });

  it('denies when the hook printed nothing, printed something else, or failed', () => {
    for (const [answer, code] of [
      [null, 0],
      ['garbage', 0],
      ['', 1],
    ] as const)
      expect(geminiHookSays(answer, code)).toMatchObject({ decision: 'deny' });
  });
});

describe("agent-collab's home for gemini", () => {
  it("keeps the person's settings but replaces their hooks with agent-collab's, and links their login", () => {
    const home = tmp();
    const personal = path.join(home, '.gemini');
    mkdirSync(personal);
    writeFileSync(
      path.join(personal, 'settings.json'),
      JSON.stringify({ ui: { theme: 'x' }, hooks: { BeforeTool: [{ matcher: '.*', hooks: [] }] } }),
    );
    writeFileSync(path.join(personal, 'oauth_creds.json'), '{}');
    const env = { HOME: home, GEMINI_API_KEY: 'k' };
    const ours = geminiHome(env, '/some/repo');
    expect(ours.startsWith(path.join(home, '.local', 'state', 'agent-collab', 'gemini'))).toBe(true);
    prepareGeminiHome(ours, { command: '/hook', timeoutSeconds: 5, env: {} }, env);
    const settings = JSON.parse(readFileSync(path.join(ours, '.gemini', 'settings.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(settings.ui).toEqual({ theme: 'x' });
    expect(settings.security).toEqual({ auth: { selectedType: 'gemini-api-key' } });
    expect(settings.hooks).toEqual({
      BeforeTool: [
        {
          matcher: 'run_shell_command',
          hooks: [{ type: 'command', command: geminiHookCommand('/hook'), timeout: 5000 }],
        },
      ],
    });
    expect(readlinkSync(path.join(ours, '.gemini', 'oauth_creds.json'))).toBe(path.join(personal, 'oauth_creds.json'));
    // The person's own file is untouched.
    expect(JSON.parse(readFileSync(path.join(personal, 'settings.json'), 'utf8'))).toMatchObject({
      ui: { theme: 'x' },
    });
  });

  it('a settings file an agent edited is written again before the next turn', () => {
    const home = tmp();
    const env = { HOME: home };
    const ours = geminiHome(env, '/repo');
    prepareGeminiHome(ours, { command: '/hook', timeoutSeconds: 5, env: {} }, env);
    writeFileSync(path.join(ours, '.gemini', 'settings.json'), '{"hooks":{}}');
    prepareGeminiHome(ours, { command: '/hook', timeoutSeconds: 5, env: {} }, env);
    const settings = JSON.parse(readFileSync(path.join(ours, '.gemini', 'settings.json'), 'utf8')) as {
      hooks: { BeforeTool: unknown[] };
    };
    expect(settings.hooks.BeforeTool).toHaveLength(1);
  });

  it('a home that cannot be written fails the turn with one line saying which dir', () => {
    const blocker = path.join(tmp(), 'not-a-dir');
    writeFileSync(blocker, '');
    const saved = process.env.XDG_STATE_HOME;
    process.env.XDG_STATE_HOME = blocker;
    try {
      const why = geminiFlavor.prepare?.({ cwd: '/repo', prompt: '', access: 'workspace-write' } as never, null);
      expect(why).toMatch(/^cannot write gemini's settings in .*not-a-dir.* \(ENOTDIR\): make that dir writable/);
    } finally {
      if (saved === undefined) delete process.env.XDG_STATE_HOME;
      else process.env.XDG_STATE_HOME = saved;
    }
  });
});
