// At the TUI's start: the agent CLIs the configured roles need but that are not installed, said before anything
// runs (otherwise the failure shows only after the first message). `doctor` asks each CLI for its version; here a
// PATH lookup is enough (no process started, so the start stays fast) and the install hint is the same.
import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import { CLAUDE_INSTALL_HINT } from '../adapters/claude/claude-agent.js';
import { CODEX_INSTALL_HINT } from '../adapters/codex/codex-agent.js';
import { GEMINI_INSTALL_HINT } from '../adapters/gemini/gemini-agent.js';
import { OPENCODE_INSTALL_HINT } from '../adapters/opencode/opencode-agent.js';
import type { Role } from '../core/types.js';
import type { AgentName, Config } from '../persistence/config-schema.js';

const INSTALL: Record<Exclude<AgentName, 'fake'>, string> = {
  codex: CODEX_INSTALL_HINT,
  claude: CLAUDE_INSTALL_HINT,
  gemini: GEMINI_INSTALL_HINT,
  opencode: OPENCODE_INSTALL_HINT,
};

async function executable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** Is `command` (a name looked up on PATH, or a path relative to `cwd`) an executable file? */
export async function commandFound(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  if (command.includes('/')) return executable(path.resolve(cwd, command));
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) if (await executable(path.join(dir, command))) return true;
  return false;
}

/** One short line per missing CLI (it must fit the flash line): "codex not found (reviewer): npm install -g …". */
export async function missingAgentClis(
  config: Config,
  cwd: string,
  /** Roles whose agent is given by the caller (tests, the demo): they need no CLI. */
  given: Partial<Record<Role, unknown>> = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const roles = (['planner', 'reviewer'] as const).filter((r) => given[r] === undefined);
  const lines: string[] = [];
  for (const name of new Set(roles.map((r) => config.roles[r]))) {
    if (name === 'fake') continue;
    const command = config.agents[name].command;
    if (await commandFound(command, cwd, env)) continue;
    const as = roles.filter((r) => config.roles[r] === name).join(' and ');
    const fix = command === name ? INSTALL[name] : `${INSTALL[name]} or fix [agents.${name}] command`;
    lines.push(`${command} not found (${as}): ${fix}, then restart`);
  }
  return lines;
}
