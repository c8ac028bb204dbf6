// `agent-collab doctor` with gemini in a role: its version, how it reaches a model, and that it runs boxed; missing,
// the command that installs it.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempRepo } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const GEMINI_ROLES = '[roles]\nplanner = "gemini"\nreviewer = "gemini"\n';

describe('agent-collab doctor with gemini', () => {
  it("lists gemini's version, its API key and base URL, and the box it runs in", async () => {
    const repo = tempRepo(GEMINI_ROLES);
    cleanup = repo.cleanup;
    const bin = path.join(repo.home, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'gemini'), '#!/bin/sh\necho "0.61.0"\n');
    chmodSync(path.join(bin, 'gemini'), 0o755);
    const r = await runCli(['doctor'], {
      cwd: repo.dir,
      home: repo.home,
      env: {
        PATH: `${bin}:${process.env.PATH}`,
        GEMINI_API_KEY: 'test-key',
        GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9',
      },
    }).done;
    expect(r.stdout).toContain('ok      gemini: gemini: 0.61.0 (planner and reviewer)');
    expect(r.stdout).toContain(
      "ok      gemini model: Gemini API key from GEMINI_API_KEY at http://127.0.0.1:9 (GOOGLE_GEMINI_BASE_URL); runs whole inside agent-collab's bubblewrap box on every turn",
    );
  });

  it('a missing gemini is a problem with its install command', async () => {
    const repo = tempRepo(GEMINI_ROLES);
    cleanup = repo.cleanup;
    const r = await runCli(['doctor'], {
      cwd: repo.dir,
      home: repo.home,
      env: { PATH: path.dirname(process.execPath) + ':/usr/bin:/bin' },
    }).done;
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /PROBLEM gemini: gemini: not found \(needed as planner and reviewer\)\n\s+fix: npm install -g @google\/gemini-cli\n/,
    );
  });
});
