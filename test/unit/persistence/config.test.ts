import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, userConfigPath } from '../../../src/persistence/config.js';
import { configSchema } from '../../../src/persistence/config-schema.js';
import { UserError } from '../../../src/core/errors.js';
import { tempDir } from './tmp-dir.js';

async function setup() {
  const repoRoot = await tempDir();
  const homeDir = await tempDir();
  const projectFile = path.join(repoRoot, '.agent-collab', 'config.toml');
  const userFile = path.join(homeDir, '.config', 'agent-collab', 'config.toml');
  const write = async (file: string, text: string) => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  };
  return { repoRoot, homeDir, projectFile, userFile, write, env: {} as NodeJS.ProcessEnv };
}

function errorOf(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return err as UserError;
  }
  throw new Error('expected a UserError');
}

describe('loadConfig layers', () => {
  it('gives the schema defaults when no file exists', async () => {
    const s = await setup();
    expect(loadConfig({ repoRoot: s.repoRoot, homeDir: s.homeDir, env: s.env })).toEqual({
      config: configSchema.parse({}),
      sources: [],
    });
  });

  it('merges defaults < user < project < overrides; tables merge, arrays replace', async () => {
    const s = await setup();
    await s.write(
      s.userFile,
      '[workflow]\nmax_iterations = 7\nauto_approve = true\n[safety]\nblocked_commands = ["a", "b"]\n',
    );
    await s.write(
      s.projectFile,
      '[workflow]\nmax_iterations = 3\n[safety]\nblocked_commands = ["c"]\n[roles]\nplanner = "claude"\n',
    );
    const { config, sources } = loadConfig({
      repoRoot: s.repoRoot,
      homeDir: s.homeDir,
      env: s.env,
      overrides: { roles: { reviewer: 'fake', planner: undefined }, workflow: { confirm_enter: true } },
    });
    expect(sources).toEqual([s.userFile, s.projectFile]);
    expect(config.workflow).toEqual({ max_iterations: 3, auto_approve: true, confirm_enter: true });
    expect(config.safety.blocked_commands).toEqual(['c']);
    expect(config.safety.require_confirm_for).toEqual(['git push', 'npm publish']);
    expect(config.roles).toMatchObject({ planner: 'claude', reviewer: 'fake' });
  });

  it('reads the user file from $XDG_CONFIG_HOME when it is set', async () => {
    const s = await setup();
    const xdg = await tempDir();
    const file = path.join(xdg, 'agent-collab', 'config.toml');
    await s.write(file, '[test]\ndefault_command = "make test"\n');
    await s.write(s.userFile, '[test]\ndefault_command = "ignored"\n');
    const env = { XDG_CONFIG_HOME: xdg };
    expect(userConfigPath(s.homeDir, env)).toBe(file);
    const { config, sources } = loadConfig({ repoRoot: s.repoRoot, homeDir: s.homeDir, env });
    expect(config.test.default_command).toBe('make test');
    expect(sources).toEqual([file]);
  });
});

describe('loadConfig errors', () => {
  const cases: [string, string][] = [
    ['[workflow]\nmax_iterations = "5x"\n', 'workflow.max_iterations must be an integer ≥ 1 (got "5x")'],
    ['[workflow]\nmax_iterations = 0\n', 'workflow.max_iterations must be an integer ≥ 1 (got 0)'],
    ['[workflow]\nmax_iterations = 500\n', 'workflow.max_iterations must be an integer ≤ 100 (got 500)'],
    ['[workflow]\nbogus = 1\n', 'unknown key workflow.bogus (known: max_iterations, auto_approve, confirm_enter)'],
    ['[paths]\ndebug_log_max_size = "10XB"\n', 'paths.debug_log_max_size must be a size like "10MB"'],
    [
      '[roles]\nplanner = "gpt"\n',
      'roles.planner must be one of "codex", "claude", "gemini", "opencode", "fake" (got "gpt")',
    ],
    ['[workflow]\nauto_approve = "yes"\n', 'workflow.auto_approve must be true or false (got "yes")'],
    ['[safety]\nblocked_commands = ["a", 3]\n', 'safety.blocked_commands[1] must be a string (got 3)'],
    ['workflow = 5\n', 'workflow must be a table (got 5)'],
    [
      '[bogus]\n',
      'unknown key bogus (known: roles, workflow, review, safety, paths, test, agents, timeouts, retry, budget, limits, tui, fake)',
    ],
    [
      '[roles]\nplanner = "claude"\nplanner_effort = "minimal"\n',
      'roles.planner_effort must be one claude takes: "low", "medium", "high", "xhigh", "max" (or "" for its default) (got "minimal")',
    ],
    [
      '[roles]\nreviewer = "codex"\nreviewer_effort = "max"\n',
      'roles.reviewer_effort must be one codex takes: "none", "minimal", "low", "medium", "high", "xhigh" (or "" for its default) (got "max")',
    ],
    ['[roles]\nplanner_effort = "turbo"\n', 'roles.planner_effort must be one of "", "none", "minimal"'],
    [
      '[roles]\nreviewer_model = "--dangerously"\n',
      'roles.reviewer_model must be a model name like "opus" or "gpt-5.5"',
    ],
    ['[budget]\nmax_tokens = -1\n', 'budget.max_tokens must be a number ≥ 0 (got -1)'],
    ['[budget]\nmax_minutes = "soon"\n', 'budget.max_minutes must be a number ≥ 0 (got "soon")'],
  ];

  it.each(cases)('%j → %s', async (toml, expected) => {
    const s = await setup();
    await s.write(s.projectFile, toml);
    const err = errorOf(() => loadConfig({ repoRoot: s.repoRoot, homeDir: s.homeDir, env: s.env }));
    expect(err.exitCode).toBe(2);
    expect(err.message).toContain(`config error in ${s.projectFile}: ${expected}`);
    expect(err.message).not.toContain('\n');
  });

  it('names the user file when that one is wrong, even if the project file fixes the key', async () => {
    const s = await setup();
    await s.write(s.userFile, '[workflow]\nmax_iterations = -1\n');
    await s.write(s.projectFile, '[workflow]\nmax_iterations = 4\n');
    const err = errorOf(() => loadConfig({ repoRoot: s.repoRoot, homeDir: s.homeDir, env: s.env }));
    expect(err.message).toBe(`config error in ${s.userFile}: workflow.max_iterations must be an integer ≥ 1 (got -1)`);
  });

  it('reports TOML syntax errors with the line', async () => {
    const s = await setup();
    await s.write(s.projectFile, '[workflow]\nmax_iterations = 5x\n');
    const err = errorOf(() => loadConfig({ repoRoot: s.repoRoot, homeDir: s.homeDir, env: s.env }));
    expect(err.message).toMatch(
      new RegExp(
        `^config error in ${s.projectFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid TOML at line 2: \\S`,
      ),
    );
    expect(err.message).not.toContain('\n');
    expect(err.exitCode).toBe(2);
  });

  it('rejects bad overrides as command-line options', async () => {
    const s = await setup();
    const err = errorOf(() =>
      loadConfig({
        repoRoot: s.repoRoot,
        homeDir: s.homeDir,
        env: s.env,
        overrides: { workflow: { max_iterations: 0 } },
      }),
    );
    expect(err.message).toBe(
      'config error in command-line options: workflow.max_iterations must be an integer ≥ 1 (got 0)',
    );
  });
});
