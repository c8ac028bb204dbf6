/**
 * Bridge to `scripts/install-e2e-clis.mjs` (the idempotent installer of the pinned real CLIs), shared by the
 * vitest globalSetup and the e2e tests. No vitest runtime import here: the globalSetup runs in the main process.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLAUDE_VERSION = '2.1.197';
export const CODEX_VERSION = '0.169.0';
export const GEMINI_VERSION = '0.61.0';
export const OPENCODE_VERSION = '1.18.33';

export type E2eClis =
  | { ok: true; binDir: string; claude: string; codex: string; gemini: string; opencode: string }
  | { ok: false; reason: string };

declare module 'vitest' {
  export interface ProvidedContext {
    agentCollabE2eClis: E2eClis;
  }
}

export const INSTALLER = fileURLToPath(new URL('../../scripts/install-e2e-clis.mjs', import.meta.url));

/** Runs the installer (a no-op when the CLIs are already in the cache); never throws. */
export function installE2eClis(): Promise<E2eClis> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [INSTALLER], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      process.stderr.write(d); // progress of a first install is worth seeing
    });
    child.on('error', (e) => resolve({ ok: false, reason: `cannot run ${INSTALLER}: ${e.message}` }));
    child.on('close', (code) => {
      const binDir = out.trim().split('\n').pop()?.trim() ?? '';
      if (code === 0 && binDir !== '') {
        resolve({
          ok: true,
          binDir,
          claude: path.join(binDir, 'claude'),
          codex: path.join(binDir, 'codex'),
          gemini: path.join(binDir, 'gemini'),
          opencode: path.join(binDir, 'opencode'),
        });
        return;
      }
      const last =
        err
          .trim()
          .split('\n')
          .pop()
          ?.replace(/^install-e2e-clis:\s*/, '') ?? '';
      resolve({ ok: false, reason: last || `installer exited ${code}` });
    });
  });
}
