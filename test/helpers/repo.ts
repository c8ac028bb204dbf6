import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';

/** A temp git repo with one commit and an identity; removed by `cleanup`. */
export function tempRepo(config?: string): { dir: string; home: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-test-'));
  const home = mkdtempSync(path.join(os.tmpdir(), 'ac-home-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'test');
  git('config', 'user.email', 'test@example.invalid');
  git('config', 'commit.gpgsign', 'false');
  writeFileSync(path.join(dir, 'README.md'), '# test\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  if (config !== undefined) {
    mkdirSync(path.join(dir, '.agent-collab'), { recursive: true });
    writeFileSync(path.join(dir, '.agent-collab', 'config.toml'), config);
  }
  return {
    dir,
    home,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export function gitLog(dir: string): string[] {
  return execFileSync('git', ['log', '--format=%s'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
}

export function readWork(dir: string, file: string): string {
  return readFileSync(path.join(dir, '.agent-collab', file), 'utf8');
}

/** A Writable that keeps what was written. */
export function sink(): Writable & { text: () => string; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const w = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  }) as Writable & { text: () => string; lines: () => Array<Record<string, unknown>> };
  w.text = () => chunks.join('');
  w.lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return w;
}

/** A temp repo whose project config runs both roles on the fake agent with `script` (for tests of the built CLI). */
export function tempRepoWithFakeScript(script: unknown): ReturnType<typeof tempRepo> {
  const repo = tempRepo();
  const file = path.join(repo.home, 'script.json');
  writeFileSync(file, JSON.stringify(script));
  mkdirSync(path.join(repo.dir, '.agent-collab'), { recursive: true });
  writeFileSync(
    path.join(repo.dir, '.agent-collab', 'config.toml'),
    `[roles]\nplanner = "fake"\nreviewer = "fake"\n[fake]\nscript = ${JSON.stringify(file)}\n`,
  );
  return repo;
}
