/**
 * The per-test fixture of the e2e tests that run agent-collab itself (the BUILT `dist/cli.js`) on the real CLIs:
 * its own scripted LLM server, HOME (claude/codex sessions live there) and git repo with a config.
 */
import { it as base } from 'vitest';
import { agentCollab, startAgentCollab, writeAgentCollabConfig, type AgentCollabConfig } from './agent-collab-run.js';
import { makeCliEnv, type CliEnv, type CliEnvOptions } from './cli-env.js';
import { e2eClis, type CliResult, type RunningCli } from './harness.js';
import { startLlmServer, type LlmServer } from './llm-server.js';

const clis = await e2eClis();

export interface AgentCollabCtx {
  server: LlmServer;
  env: CliEnv;
  repo: string;
  /** Writes `.agent-collab/config.toml` (the cached binaries, small timeouts, backoff 0.1 s) with these changes. */
  config(c?: Partial<AgentCollabConfig>): void;
  /** `agent-collab <args> --json` in the repo, with the test's env. */
  run(args: string[], timeoutMs?: number): Promise<CliResult>;
  /** The same, started in the background. */
  start(args: string[], timeoutMs?: number): RunningCli;
}

/** The installed CLIs (the tests skip when they are not). */
export const e2eInstall = clis;

/** The fixture with its env made with these options (e.g. `parentDir`). */
export const itWith = (envOpts: Pick<CliEnvOptions, 'parentDir' | 'env'> = {}) =>
  base.extend<{ ac: AgentCollabCtx }>({
    ac: async ({ skip }, use) => {
      if (!clis.ok) return skip(`real CLIs not installed: ${clis.reason}`);
      const server = await startLlmServer();
      const env = makeCliEnv({ serverUrl: server.url, binDir: clis.binDir, ...envOpts });
      const repo = env.makeRepo();
      const config = (c: Partial<AgentCollabConfig> = {}) =>
        writeAgentCollabConfig(repo, { claude: clis.claude, codex: clis.codex, ...c });
      config();
      try {
        await use({
          server,
          env,
          repo,
          config,
          run: (args, timeoutMs) => agentCollab([...args, '--json'], { repo, env: env.env, timeoutMs }),
          start: (args, timeoutMs) => startAgentCollab([...args, '--json'], { repo, env: env.env, timeoutMs }),
        });
      } finally {
        await server.close();
        env.cleanup();
      }
    },
  });

export const it = itWith();
