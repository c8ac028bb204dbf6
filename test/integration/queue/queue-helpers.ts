// Shared by the inbox queue's tests: a temp repo with an inbox, instruction files written into it, and the queue run
// in-process on fake agents (one pair per instruction's run, kept to read the prompts they received).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../../src/adapters/fake/script.js';
import { parseFrontmatter } from '../../../src/persistence/frontmatter.js';
import type { QueueEvent } from '../../../src/queue/queue-events.js';
import { runQueue, type QueueOptions, type QueueResult } from '../../../src/queue/queue.js';
import { tempRepo } from '../../helpers/repo.js';

export interface QueueRepo {
  dir: string;
  home: string;
  inbox: string;
  cleanup: () => void;
  /** Writes `.agent-collab/inbox/<name>.md` from frontmatter lines and a body. */
  instruction(name: string, frontmatter: string, body: string): void;
  /** The fake agents of each run, by instruction, in the order the runs were made. */
  agents: Array<{ instruction: string; planner: FakeAgent; reviewer: FakeAgent }>;
  queue(
    opts?: Partial<QueueOptions>,
    scripts?: Record<string, FakeScript>,
  ): Promise<QueueResult & { events: QueueEvent[] }>;
  /** A report's frontmatter and body. */
  report(name: string): Promise<{ data: Record<string, unknown>; content: string }>;
  ls(dir: string): string[];
}

export function queueRepo(): QueueRepo {
  const repo = tempRepo();
  vi.stubEnv('XDG_CONFIG_HOME', path.join(repo.home, '.config'));
  const inbox = path.join(repo.dir, '.agent-collab', 'inbox');
  mkdirSync(inbox, { recursive: true });
  const agents: QueueRepo['agents'] = [];
  return {
    ...repo,
    inbox,
    agents,
    cleanup: () => {
      vi.unstubAllEnvs();
      repo.cleanup();
      // Where `--parallel` put the runs' worktrees (adapters/git/run-worktree.ts).
      rmSync(`${repo.dir}-agent-collab`, { recursive: true, force: true });
    },
    instruction: (name, frontmatter, body) =>
      writeFileSync(path.join(inbox, `${name}.md`), `---\n${frontmatter}\n---\n\n${body}\n`),
    queue: async (opts = {}, scripts = {}) => {
      const events: QueueEvent[] = [];
      const result = await runQueue({
        cwd: repo.dir,
        parallel: 1,
        homeDir: repo.home,
        run: { auto: true, autoApprove: true },
        onEvent: (e) => events.push(e),
        agentsFor: (instruction) => {
          const script = scripts[instruction] ?? { rules: [] };
          const pair = {
            planner: new FakeAgent('planner', script, { sessionPrefix: `${instruction}-p` }),
            reviewer: new FakeAgent('reviewer', script, { sessionPrefix: `${instruction}-r` }),
          };
          agents.push({ instruction, ...pair });
          return pair;
        },
        ...opts,
      });
      return { ...result, events };
    },
    report: async (name) => {
      const file = path.join(repo.dir, '.agent-collab', 'reports', `${name}.md`);
      return parseFrontmatter(readFileSync(file, 'utf8'), file);
    },
    ls: (dir) => {
      try {
        return readdirSync(path.join(repo.dir, '.agent-collab', dir)).sort();
      } catch {
        return [];
      }
    },
  };
}
