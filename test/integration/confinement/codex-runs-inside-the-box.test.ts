// The codex adapter runs the codex process itself inside agent-collab's bubblewrap box (real bwrap, a stand-in
// codex): on a write turn it can write the working tree and its own CODEX_HOME, but not .agent-collab, .git or $HOME;
// on a read-only turn not even the working tree. Confinement unavailable → the turn fails naming the fix and the
// CLI never starts.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCodexAgent } from '../../../src/adapters/codex/codex-agent.js';
import { agentConfinement } from '../../../src/adapters/confinement/index.js';
import type { AgentEvent, AgentTurn } from '../../../src/core/types.js';
import { tempRepo } from '../../helpers/repo.js';
import { mkdirs } from './helpers.js';

let cleanup: (() => void) | undefined;
const savedEnv = { HOME: process.env.HOME, CODEX_HOME: process.env.CODEX_HOME };
afterEach(() => {
  cleanup?.();
  process.env.HOME = savedEnv.HOME;
  if (savedEnv.CODEX_HOME === undefined) delete process.env.CODEX_HOME;
  else process.env.CODEX_HOME = savedEnv.CODEX_HOME;
});

/** A stand-in codex that tries each write, then answers with what stuck (a codex JSON stream). */
function standInCodex(dir: string): string {
  const file = path.join(dir, 'codex');
  writeFileSync(
    file,
    `#!${process.execPath}
const fs = require('node:fs');
// Outside any box this marks that the stand-in ran; inside the box its dir is read-only.
try { fs.appendFileSync(${JSON.stringify(path.join(dir, 'started'))}, 'x'); } catch {}
const tries = {
  repo: 'made.txt',
  plan: '.agent-collab/plan.md',
  gitHead: '.git/HEAD',
  home: process.env.HOME + '/.bashrc',
  session: process.env.CODEX_HOME + '/sessions.jsonl',
};
const result = {};
for (const [k, f] of Object.entries(tries)) {
  try { fs.writeFileSync(f, 'written\\n'); result[k] = 'ok'; } catch (e) { result[k] = e.code; }
}
const line = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
line({ type: 'thread.started', thread_id: 't-1' });
line({ type: 'item.completed', item: { id: 'i', type: 'agent_message', text: JSON.stringify(result) } });
line({ type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } });
`,
  );
  chmodSync(file, 0o755);
  return file;
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

function setup(check?: () => Promise<string | null>) {
  const repo = tempRepo();
  cleanup = repo.cleanup;
  const workdir = path.join(repo.dir, '.agent-collab');
  mkdirs(workdir, path.join(repo.home, 'bin'));
  writeFileSync(path.join(workdir, 'plan.md'), 'PLAN\n');
  process.env.HOME = repo.home;
  process.env.CODEX_HOME = path.join(repo.home, '.codex');
  const binary = standInCodex(path.join(repo.home, 'bin'));
  const agent = createCodexAgent({
    name: 'codex-planner',
    binary,
    debug: () => undefined,
    debugSource: 'planner/codex',
    confinement: agentConfinement(workdir, check),
  });
  const turn = (access: AgentTurn['access']): AgentTurn => ({
    prompt: 'go',
    cwd: repo.dir,
    access,
    meta: { role: 'planner', kind: 'execute_step', iteration: 1, step: 1 },
  });
  return { repo, workdir, agent, turn, binary };
}

function answer(events: AgentEvent[]): Record<string, string> {
  const done = events.find((e) => e.type === 'done');
  return JSON.parse(done && done.type === 'done' ? done.text : '{}') as Record<string, string>;
}

describe('codex in the box', () => {
  it('write turn: the working tree and CODEX_HOME are writable; .agent-collab, .git and $HOME are not', async () => {
    const { repo, workdir, agent, turn } = setup();
    const events = await collect(agent.start(turn('workspace-write')));
    expect(answer(events)).toEqual({ repo: 'ok', plan: 'EROFS', gitHead: 'EROFS', home: 'EROFS', session: 'ok' });
    expect(readFileSync(path.join(repo.dir, 'made.txt'), 'utf8')).toBe('written\n');
    expect(readFileSync(path.join(workdir, 'plan.md'), 'utf8')).toBe('PLAN\n');
    expect(readFileSync(path.join(repo.dir, '.git/HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
    expect(existsSync(path.join(repo.home, '.bashrc'))).toBe(false);
    expect(existsSync(path.join(repo.home, '.codex', 'sessions.jsonl'))).toBe(true);
  });

  it('read-only turn: the working tree is read-only as well', async () => {
    const { repo, agent, turn } = setup();
    const events = await collect(agent.start(turn('read-only')));
    expect(answer(events)).toMatchObject({ repo: 'EROFS', plan: 'EROFS', session: 'ok' });
    expect(existsSync(path.join(repo.dir, 'made.txt'))).toBe(false);
  });

  it('confinement unavailable: the turn fails with the fix and codex never starts', async () => {
    const why =
      "cannot confine the agents' write turns: bubblewrap (bwrap) is not installed. Install it (Debian/Ubuntu: apt-get install bubblewrap socat)";
    const { repo, agent, turn, binary } = setup(() => Promise.resolve(why));
    const events = await collect(agent.start(turn('workspace-write')));
    expect(events).toEqual([{ type: 'error', kind: 'missing_binary', message: why }]);
    expect(existsSync(path.join(path.dirname(binary), 'started'))).toBe(false);
    expect(existsSync(path.join(repo.dir, 'made.txt'))).toBe(false);
  });
});
