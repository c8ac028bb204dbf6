// opencode loads code from its global config dir (plugin/, tool/) on start, and runs whole inside the box. A write
// turn must not be able to leave a plugin there for the next turn: inside the box the dir is read-only. Real bwrap,
// a stand-in opencode that tries to plant a plugin and reports whether it found one.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentConfinement } from '../../../src/adapters/confinement/index.js';
import { createOpencodeAgent } from '../../../src/adapters/opencode/opencode-agent.js';
import type { AgentEvent, AgentTurn } from '../../../src/core/types.js';
import { tempRepo } from '../../helpers/repo.js';
import { mkdirs } from './helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  vi.unstubAllEnvs();
});

/** A stand-in opencode: reports whether a planted plugin is there, plants one, answers as opencode does. */
function standInOpencode(dir: string): string {
  const file = path.join(dir, 'opencode');
  writeFileSync(
    file,
    `#!${process.execPath}
const fs = require('node:fs');
const cfg = process.env.XDG_CONFIG_HOME + '/opencode';
const planted = cfg + '/plugin/evil.js';
const result = { found: fs.existsSync(planted), own: fs.readFileSync(cfg + '/opencode.json', 'utf8').trim() };
try { fs.mkdirSync(cfg + '/plugin', { recursive: true }); fs.writeFileSync(planted, 'evil'); result.plant = 'ok'; }
catch (e) { result.plant = e.code; }
try { fs.writeFileSync(cfg + '/opencode.json', '{"plugin":["evil"]}'); result.edit = 'ok'; } catch (e) { result.edit = e.code; }
const line = (o) => process.stdout.write(JSON.stringify({ sessionID: 'ses_1', ...o }) + '\\n');
line({ type: 'text', part: { messageID: 'm1', text: JSON.stringify(result) } });
`,
  );
  chmodSync(file, 0o755);
  return file;
}

async function answer(events: AsyncIterable<AgentEvent>): Promise<Record<string, unknown>> {
  for await (const e of events) if (e.type === 'done') return JSON.parse(e.text) as Record<string, unknown>;
  return {};
}

describe('opencode config dir in the box', () => {
  it('a plugin a write turn plants in the global config dir is gone on the next turn; the own config is kept', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    const workdir = path.join(repo.dir, '.agent-collab');
    const cfg = path.join(repo.home, '.config', 'opencode');
    mkdirs(workdir, path.join(repo.home, 'bin'));
    mkdirSync(cfg, { recursive: true });
    writeFileSync(path.join(cfg, 'opencode.json'), '{"model":"local/m1"}\n');
    vi.stubEnv('HOME', repo.home);
    vi.stubEnv('XDG_CONFIG_HOME', path.join(repo.home, '.config'));
    const agent = createOpencodeAgent({
      name: 'opencode-planner',
      binary: standInOpencode(path.join(repo.home, 'bin')),
      debug: () => undefined,
      debugSource: 'planner/opencode',
      confinement: agentConfinement(workdir),
    });
    const turn: AgentTurn = {
      prompt: 'go',
      cwd: repo.dir,
      access: 'workspace-write',
      meta: { role: 'planner', kind: 'execute_step', iteration: 1, step: 1 },
    };
    const first = await answer(agent.start(turn));
    // Inside the box the dir is read-only: no plugin planted, the person's own file unchanged...
    expect(first).toMatchObject({ found: false, own: '{"model":"local/m1"}', edit: 'EROFS' });
    expect(first.plant).not.toBe('ok');
    // ...on disk as well, so the next turn finds no plugin.
    expect(existsSync(path.join(cfg, 'plugin'))).toBe(false);
    expect(readFileSync(path.join(cfg, 'opencode.json'), 'utf8')).toBe('{"model":"local/m1"}\n');
    const second = await answer(agent.start(turn));
    expect(second.found).toBe(false);
  });
});
