// The gemini homes agent-collab makes under ~/.local/state/agent-collab/gemini/ (one per repo or worktree) are
// bounded: preparing a turn removes the homes whose repo is gone (a cleaned worktree), and keeps those of repos that
// still exist (their sessions resume an unfinished run) and those that name no repo.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentTurn } from '../../../src/core/types.js';
import { geminiFlavor, geminiHome } from '../../../src/adapters/gemini/gemini-agent.js';

const dirs: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('gemini homes', () => {
  it('a home whose repo is gone is removed at the next turn; a live repo’s and an unnamed one stay', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'ac-gemini-homes-'));
    dirs.push(root);
    vi.stubEnv('XDG_STATE_HOME', path.join(root, 'state'));
    vi.stubEnv('HOME', path.join(root, 'home'));
    const live = path.join(root, 'live');
    const gone = path.join(root, 'gone-worktree');
    mkdirSync(live);
    mkdirSync(gone);
    const prepare = (cwd: string): void => expect(geminiFlavor.prepare!({ cwd } as AgentTurn, null)).toBeNull();
    prepare(live);
    prepare(gone);
    const unnamed = path.join(path.dirname(geminiHome(process.env, live)), '0123456789abcdef');
    mkdirSync(path.join(unnamed, '.gemini'), { recursive: true });
    expect(existsSync(geminiHome(process.env, gone))).toBe(true);

    rmSync(gone, { recursive: true });
    prepare(live);

    expect(existsSync(geminiHome(process.env, gone))).toBe(false);
    expect(existsSync(path.join(geminiHome(process.env, live), '.gemini', 'settings.json'))).toBe(true);
    expect(existsSync(unnamed)).toBe(true);
  });
});
