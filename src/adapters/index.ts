// Picks the adapter for a configured agent name.
import type { WorkflowFiles } from '../engine/ports.js';
import type { Agent, Role } from '../engine/types.js';
import type { AgentName, Config } from '../persistence/config-schema.js';
import { UserError } from '../persistence/errors.js';
import type { Paths } from '../persistence/paths.js';
import { FakeAgent } from './fake/fake-agent.js';
import { DEMO_SCRIPT, loadFakeScript } from './fake/script.js';

export interface AgentContext {
  role: Role;
  config: Config;
  paths: Paths;
  debug: Pick<WorkflowFiles, 'debug'>;
}

export async function createAgent(name: AgentName, ctx: AgentContext): Promise<Agent> {
  switch (name) {
    case 'fake': {
      const script = ctx.config.fake.script ? await loadFakeScript(ctx.config.fake.script) : DEMO_SCRIPT;
      return new FakeAgent(`fake-${ctx.role}`, script, { sessionPrefix: `fake-${ctx.role}` });
    }
    case 'codex':
    case 'claude':
      throw new UserError(
        `the ${name} adapter is not in this build yet; set [roles] ${ctx.role} = "fake" in .agent-collab/config.toml to try the workflow, or run \`agent-collab demo\``,
      );
  }
}
