import { z } from 'zod';
import { parseSize } from './size.js';

const sizeString = z
  .string()
  .refine((s) => parseSize(s) !== null, { message: 'a size like "10MB", "512KB" or "1GB"' });

const agentName = z.enum(['codex', 'claude', 'fake']);

/** Wall time of one agent turn, and how long it may go without any output, in seconds. */
function roleTimeouts(wall: number, idle: number) {
  return z
    .object({
      wall_seconds: z.number().int().min(1).max(86_400).default(wall),
      idle_seconds: z.number().int().min(1).max(86_400).default(idle),
    })
    .strict()
    .prefault({});
}

export const configSchema = z
  .object({
    roles: z
      .object({
        planner: agentName.default('codex'),
        reviewer: agentName.default('claude'),
      })
      .strict()
      .prefault({}),
    workflow: z
      .object({
        max_iterations: z.number().int().min(1).max(100).default(5),
        auto_approve: z.boolean().default(false),
        confirm_enter: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    safety: z
      .object({
        blocked_commands: z.array(z.string()).default(['rm -rf', 'sudo', 'chmod 777', '> /dev/']),
        require_confirm_for: z.array(z.string()).default(['git push', 'npm publish']),
        max_denials_per_step: z.number().int().min(1).max(100).default(3),
        confirm_timeout_seconds: z.number().int().min(5).max(86_400).default(600),
      })
      .strict()
      .prefault({}),
    paths: z
      .object({
        workdir: z.string().min(1).default('.agent-collab'),
        plan: z.string().min(1).default('plan.md'),
        comments: z.string().min(1).default('comments.md'),
        log: z.string().min(1).default('log.md'),
        debug_log: z.string().min(1).default('debug.log'),
        debug_log_max_size: sizeString.default('10MB'),
      })
      .strict()
      .prefault({}),
    test: z
      .object({
        default_command: z.string().min(1).default('auto'),
        fallback_to_agent: z.boolean().default(true),
        timeout_seconds: z.number().int().min(1).max(86_400).default(900),
        max_retries: z.number().int().min(0).max(20).default(3),
      })
      .strict()
      .prefault({}),
    agents: z
      .object({
        codex: z.object({ command: z.string().min(1).default('codex') }).strict().prefault({}),
        claude: z.object({ command: z.string().min(1).default('claude') }).strict().prefault({}),
      })
      .strict()
      .prefault({}),
    timeouts: z
      .object({
        planner: roleTimeouts(1800, 300),
        reviewer: roleTimeouts(900, 300),
      })
      .strict()
      .prefault({}),
    retry: z
      .object({
        infra_retries: z.number().int().min(0).max(20).default(3),
        backoff_seconds: z.number().min(0).max(3600).default(5),
      })
      .strict()
      .prefault({}),
    fake: z
      .object({
        /** JSON script for the fake agents; empty = the built-in demo script. */
        script: z.string().default(''),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
export type AgentName = z.infer<typeof agentName>;
