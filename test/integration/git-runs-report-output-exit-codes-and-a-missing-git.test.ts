// runGit is how the engine talks to git: stdout and stderr whole (even megabytes), stdin fed when asked, a failing
// command's exit code instead of a rejection, and one clear error when git is not installed.
import { afterEach, describe, expect, it } from 'vitest';
import { runGit } from '../../src/adapters/git/git.js';
import { UserError } from '../../src/core/errors.js';
import { tempRepo } from '../helpers/repo.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function repo(): string {
  const r = tempRepo();
  cleanups.push(r.cleanup);
  return r.dir;
}

describe('runGit', () => {
  it('returns stdout whole, feeds stdin, and passes extra environment', async () => {
    const dir = repo();
    const big = `${'x'.repeat(3 * 1024 * 1024)}\n`;
    const hashed = await runGit(dir, ['hash-object', '-w', '--stdin'], { input: big });
    expect(hashed.exitCode).toBe(0);
    const id = hashed.stdout.trim();
    expect(id).toMatch(/^[0-9a-f]{40}$/);
    const back = await runGit(dir, ['cat-file', '-p', id]);
    expect(back.stdout).toBe(big);
    const env = await runGit(dir, ['var', 'GIT_AUTHOR_IDENT'], {
      env: { GIT_AUTHOR_NAME: 'Step Bot', GIT_AUTHOR_EMAIL: 'bot@example.invalid' },
    });
    expect(env.stdout).toMatch(/^Step Bot <bot@example\.invalid> /);
  });

  it('a failing command resolves with its exit code and stderr', async () => {
    const r = await runGit(repo(), ['rev-parse', '--verify', 'no-such-ref']);
    expect(r.exitCode).toBe(128);
    expect(r.stderr).toContain('Needed a single revision');
  });

  it('git missing from PATH: one UserError saying to install it', async () => {
    const dir = repo();
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent-bin';
    try {
      const err = await runGit(dir, ['status']).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UserError);
      expect((err as Error).message).toBe('git was not found on PATH; install git and try again');
    } finally {
      process.env.PATH = path;
    }
  });
});
