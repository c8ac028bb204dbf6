// `agent-collab policy check '<command>'`: how the [safety] rules in effect here treat one shell command.
// Exit 0 allow, 1 confirm, 2 block (a config error also exits 2, with its one-line message on stderr).
import { existsSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { findRepoRoot } from '../adapters/git/git.js';
import { checkCommand, type PolicyDecision } from '../core/policy/index.js';
import { loadShellParser } from '../adapters/shell-parser/syntax.js';
import { loadConfig } from '../persistence/config.js';
import { UserError } from '../core/errors.js';

export const POLICY_EXIT: Readonly<Record<PolicyDecision, number>> = { allow: 0, confirm: 1, block: 2 };

export interface PolicyCheckOptions {
  command: string;
  cwd: string;
  json: boolean;
  homeDir?: string;
  out?: Writable;
}

export async function runPolicyCheck(opts: PolicyCheckOptions): Promise<number> {
  const out = opts.out ?? process.stdout;
  if (!existsSync(opts.cwd)) throw new UserError(`${opts.cwd} does not exist; pass an existing directory with -C`);
  // The same layers as `run`: user file < project file < defaults; outside a git repo only the user file.
  const repoRoot = await findRepoRoot(opts.cwd).catch(() => null);
  const { config, sources } = loadConfig({ repoRoot, homeDir: opts.homeDir });
  const parse = await loadShellParser();
  const result = checkCommand(
    opts.command,
    { blocked: config.safety.blocked_commands, confirm: config.safety.require_confirm_for },
    parse,
  );
  if (opts.json) {
    out.write(`${JSON.stringify({ ...result, command: opts.command, config: sources })}\n`);
  } else if (result.decision === 'allow') {
    out.write(`allow  ${result.reason}\n`);
  } else {
    out.write(
      `${result.decision.padEnd(6)} rule ${JSON.stringify(result.rule)} matched ${JSON.stringify(result.matched)}\n`,
    );
    out.write(`       ${result.reason}\n`);
  }
  return POLICY_EXIT[result.decision];
}
