// Picks the adapter for a configured agent name.
import type { WorkflowFiles } from '../core/ports.js';
import type { Agent, Role } from '../core/types.js';
import type { AgentName, Config } from '../persistence/config-schema.js';
import type { Paths } from '../persistence/paths.js';
import { createClaudeAgent } from './claude/claude-agent.js';
import { createCodexAgent } from './codex/codex-agent.js';
import { createGeminiAgent } from './gemini/gemini-agent.js';
import { createOpencodeAgent } from './opencode/opencode-agent.js';
import type { CliAgentOptions, ModelChoice } from './cli-agent.js';
import type { HookEndpoint } from './command-hook/endpoint.js';
import { agentConfinement } from './confinement/index.js';
import { FakeAgent } from './fake/fake-agent.js';
import type { DebugSink } from './process-runner.js';
import { DEMO_SCRIPT, loadFakeScript } from './fake/script.js';

export interface AgentContext {
  role: Role;
  config: Config;
  paths: Paths;
  debug: Pick<WorkflowFiles, 'debug'>;
  /** agent-collab's command hook for this role: every turn passes it to the CLI (or the fake's scripted commands). */
  hook?: HookEndpoint;
}

/** The role's `[roles] <role>_model` and `<role>_effort` ("" = the CLI's default). */
export function modelChoice(config: Config, role: Role): ModelChoice {
  return { model: config.roles[`${role}_model`], effort: config.roles[`${role}_effort`] };
}

function cliOptions(cli: 'codex' | 'claude' | 'gemini' | 'opencode', ctx: AgentContext): CliAgentOptions {
  const t = ctx.config.timeouts[ctx.role];
  const debug: DebugSink = (source, line) => ctx.debug.debug(source, line);
  return {
    name: `${cli}-${ctx.role}`,
    binary: ctx.config.agents[cli].command,
    debug,
    debugSource: `${ctx.role}/${cli}`,
    model: modelChoice(ctx.config, ctx.role),
    wallTimeoutMs: t.wall_seconds * 1000,
    idleTimeoutMs: t.idle_seconds * 1000,
    ...(ctx.hook ? { hook: ctx.hook } : {}),
    ...(ctx.config.safety.sandbox === 'on' ? { confinement: agentConfinement(ctx.paths.workdir) } : {}),
  };
}

export async function createAgent(name: AgentName, ctx: AgentContext): Promise<Agent> {
  switch (name) {
    case 'fake': {
      const script = ctx.config.fake.script ? await loadFakeScript(ctx.config.fake.script) : DEMO_SCRIPT;
      return new FakeAgent(`fake-${ctx.role}`, script, {
        sessionPrefix: `fake-${ctx.role}`,
        ...(ctx.hook ? { hook: ctx.hook } : {}),
      });
    }
    case 'codex':
      return createCodexAgent(cliOptions('codex', ctx));
    case 'claude':
      return createClaudeAgent(cliOptions('claude', ctx));
    case 'gemini':
      return createGeminiAgent(cliOptions('gemini', ctx));
    case 'opencode':
      return createOpencodeAgent(cliOptions('opencode', ctx));
  }
}
