// opencode runs whole inside the box with data, cache and state dirs of agent-collab's own (one home per repo): a
// turn once wrote an executable `rg` into opencode's bin/ and the person's own, unboxed opencode later ran it. Real
// bwrap, a stand-in opencode that tries what a hostile turn would and reports what it could do.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentConfinement } from '../../../src/adapters/confinement/index.js';
import { createOpencodeAgent } from '../../../src/adapters/opencode/opencode-agent.js';
import { opencodeHome } from '../../../src/adapters/opencode/opencode-home.js';
import type { AgentEvent, AgentTurn } from '../../../src/core/types.js';
import { tempRepo } from '../../helpers/repo.js';
import { mkdirs } from './helpers.js';

let cleanup: (() => void) | undefined;
const NAMES = ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME'] as const;
type ExtraEnv = 'OPENCODE_CONFIG_DIR' | 'OPENCODE_CONFIG';
afterEach(() => {
  cleanup?.();
  vi.unstubAllEnvs();
});

/**
 * A stand-in opencode: plants an `rg` in the bin/ of the data and cache dirs it was given and of the person's real
 * ones (under HOME), tries to read the person's database and its own login, tries to overwrite the
 * login, plants a plugin in OPENCODE_CONFIG_DIR and edits OPENCODE_CONFIG; remembers a session in its data dir.
 */
function standInOpencode(dir: string): string {
  const file = path.join(dir, 'opencode');
  writeFileSync(
    file,
    `#!${process.execPath}
const fs = require('node:fs');
const e = process.env;
// The person's own dirs (no XDG bases of their own in this test); the turn's XDG bases point elsewhere.
e.PERSON_DATA = e.HOME + '/.local/share';
e.PERSON_CACHE = e.HOME + '/.cache';
const r = {};
const tryIt = (name, f) => { try { r[name] = f() ?? 'ok'; } catch (err) { r[name] = err.code; } };
r.rgLeft = fs.existsSync(e.XDG_CACHE_HOME + '/opencode/bin/rg');
r.sessionKept = fs.existsSync(e.XDG_DATA_HOME + '/opencode/session.txt');
fs.writeFileSync(e.XDG_DATA_HOME + '/opencode/session.txt', 'ses_1');
for (const [name, d] of [['ownData', e.XDG_DATA_HOME], ['ownCache', e.XDG_CACHE_HOME], ['personData', e.PERSON_DATA], ['personCache', e.PERSON_CACHE]])
  tryIt(name, () => { fs.mkdirSync(d + '/opencode/bin', { recursive: true }); fs.writeFileSync(d + '/opencode/bin/rg', '#!/bin/sh\\necho planted\\n', { mode: 0o755 }); });
tryIt('personDb', () => fs.readFileSync(e.PERSON_DATA + '/opencode/opencode.db', 'utf8'));
tryIt('login', () => fs.readFileSync(e.XDG_DATA_HOME + '/opencode/auth.json', 'utf8').trim());
tryIt('loginEdit', () => fs.writeFileSync(e.XDG_DATA_HOME + '/opencode/auth.json', '{"evil":1}'));
if (e.OPENCODE_CONFIG_DIR) tryIt('plugin', () => { fs.mkdirSync(e.OPENCODE_CONFIG_DIR + '/plugin', { recursive: true }); fs.writeFileSync(e.OPENCODE_CONFIG_DIR + '/plugin/evil.js', 'x'); });
if (e.OPENCODE_CONFIG) tryIt('configEdit', () => fs.writeFileSync(e.OPENCODE_CONFIG, '{"plugin":["evil"]}'));
process.stdout.write(JSON.stringify({ sessionID: 'ses_1', type: 'text', part: { messageID: 'm1', text: JSON.stringify(r) } }) + '\\n');
`,
  );
  chmodSync(file, 0o755);
  return file;
}

async function answer(events: AsyncIterable<AgentEvent>): Promise<Record<string, unknown>> {
  for await (const e of events) {
    if (e.type === 'done') return JSON.parse(e.text) as Record<string, unknown>;
    if (e.type === 'error') throw new Error(e.message);
  }
  return {};
}

function setUp(extraEnv: Partial<Record<ExtraEnv, (repo: string) => string>> = {}) {
  const repo = tempRepo();
  cleanup = repo.cleanup;
  const workdir = path.join(repo.dir, '.agent-collab');
  const person = { data: path.join(repo.home, '.local', 'share'), cache: path.join(repo.home, '.cache') };
  mkdirs(workdir, path.join(repo.home, 'bin'), path.join(person.data, 'opencode'), path.join(person.cache, 'opencode'));
  writeFileSync(path.join(person.data, 'opencode', 'opencode.db'), 'ALL MY SESSIONS');
  writeFileSync(path.join(person.data, 'opencode', 'auth.json'), '{"anthropic":{"type":"api","key":"k"}}\n');
  for (const k of NAMES) vi.stubEnv(k, undefined);
  vi.stubEnv('HOME', repo.home);
  vi.stubEnv('XDG_CONFIG_HOME', path.join(repo.home, '.config'));
  for (const [k, f] of Object.entries(extraEnv)) vi.stubEnv(k, f(repo.dir));
  const binary = standInOpencode(path.join(repo.home, 'bin'));
  const agent = createOpencodeAgent({
    name: 'opencode-planner',
    binary,
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
  return { repo, person, agent, turn };
}

describe("opencode's own dirs in the box", () => {
  it("an rg a turn plants in bin/ never reaches the person's opencode dirs, nor the next turn; the person's database is not readable; sessions last", async () => {
    const { repo, person, agent, turn } = setUp();
    const first = await answer(agent.start(turn));
    // The turn's own dirs are writable (its sessions must last), the person's are not even there...
    expect(first).toMatchObject({ ownData: 'ok', ownCache: 'ok', personDb: 'ENOENT', sessionKept: false });
    expect(first.personData).not.toBe('ok');
    expect(first.personCache).not.toBe('ok');
    // ...their login is, read-only.
    expect(first.login).toBe('{"anthropic":{"type":"api","key":"k"}}');
    expect(first.loginEdit).toBe('EROFS');
    // On disk: no rg where the person's opencode looks, their database and login unchanged.
    for (const dir of [person.data, person.cache]) expect(existsSync(path.join(dir, 'opencode', 'bin'))).toBe(false);
    expect(readFileSync(path.join(person.data, 'opencode', 'opencode.db'), 'utf8')).toBe('ALL MY SESSIONS');
    expect(readFileSync(path.join(person.data, 'opencode', 'auth.json'), 'utf8')).toContain('"key":"k"');
    // agent-collab's home keeps the session, and no rg in the bin/ opencode runs it from.
    const home = opencodeHome(process.env, repo.dir);
    expect(readFileSync(path.join(home, 'data', 'opencode', 'session.txt'), 'utf8')).toBe('ses_1');
    expect(existsSync(path.join(home, 'cache', 'opencode', 'bin', 'rg'))).toBe(false);
    const second = await answer(agent.start(turn));
    expect(second).toMatchObject({ sessionKept: true, rgLeft: false });
  });

  it('a plugin planted in OPENCODE_CONFIG_DIR and an edit of the OPENCODE_CONFIG file do not happen, even inside the repo', async () => {
    const { repo, agent, turn } = setUp({
      OPENCODE_CONFIG_DIR: (r) => path.join(r, 'oc-shared'),
      OPENCODE_CONFIG: (r) => path.join(r, 'person-config.json'),
    });
    mkdirSync(path.join(repo.dir, 'oc-shared'));
    writeFileSync(path.join(repo.dir, 'person-config.json'), '{}\n');
    const result = await answer(agent.start(turn));
    expect(result.plugin).not.toBe('ok');
    expect(result.configEdit).toBe('EROFS');
    expect(existsSync(path.join(repo.dir, 'oc-shared', 'plugin'))).toBe(false);
    expect(readFileSync(path.join(repo.dir, 'person-config.json'), 'utf8')).toBe('{}\n');
  });
});
