/**
 * Issue 17, acceptance 2 at the e2e level: on a machine without bubblewrap (here: a PATH whose every program is
 * the machine's own except `bwrap`), `agent-collab run` starts no write turn: it ends with one line naming the fix
 * (`apt-get install bubblewrap socat`), no stack trace, and the executor's scripted write never happens; `doctor`
 * reports the same. Run `npm run build` first.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { it } from './agent-collab-fixture.js';
import { agentCollab, gitSubjects } from './agent-collab-run.js';
import { describeRun } from './harness.js';
import { reply } from './llm-server.js';
import { git } from './tamper.js';

const FIX = 'apt-get install bubblewrap socat';

/** A bin dir linking every program on `pathVar` except bwrap (first one of a name wins, as on PATH). */
function pathWithoutBwrap(binDir: string, pathVar: string): string {
  mkdirSync(binDir, { recursive: true });
  for (const dir of pathVar.split(path.delimiter)) {
    if (dir === '' || !existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const link = path.join(binDir, name);
      if (name === 'bwrap' || existsSync(link)) continue;
      try {
        symlinkSync(path.join(dir, name), link);
      } catch {
        // a name taken meanwhile: the first one wins
      }
    }
  }
  return binDir;
}

/** Lines of the run's output that carry the fix. */
const linesNaming = (text: string, needle: string) => text.split('\n').filter((l) => l.includes(needle));

for (const executor of ['codex', 'claude'] as const) {
  const reviewer = executor === 'codex' ? 'claude' : 'codex';

  describe(`without bubblewrap, ${executor} as executor`, () => {
    it('run starts no write turn and ends with one line naming apt-get install bubblewrap socat', async ({
      ac,
      expect,
    }) => {
      const { server, repo, env } = ac;
      ac.config({ planner: executor, reviewer });
      const noBwrap = { ...env.env, PATH: pathWithoutBwrap(path.join(env.root, 'bin'), env.env.PATH ?? '') };
      const script = (cli: string) => (cli === 'codex' ? server.openai : server.anthropic);
      // should the run get as far as executing, the executor writes a file (which must not happen)
      script(executor).push(
        reply.text('# Plan\n\n## Steps\n1. [ ] Add a.txt\n'),
        executor === 'codex'
          ? reply.applyPatch('*** Begin Patch\n*** Add File: a.txt\n+A\n*** End Patch\n')
          : reply.tool('Write', { file_path: path.join(repo, 'a.txt'), content: 'A\n' }),
        reply.text('Added a.txt.\nSummary: add a.txt'),
      );
      script(reviewer).push(reply.text('[APPROVED]\n\nFine.'));

      const r = await agentCollab(['run', '--goal', 'add a.txt', '--auto', '--auto-approve', '--json'], {
        repo,
        env: noBwrap,
        timeoutMs: 90_000,
      });
      const report = describeRun(r);
      expect(r.code, report).not.toBe(0);
      expect(linesNaming(`${r.stdout}\n${r.stderr}`, FIX).length, report).toBeGreaterThan(0);
      expect(`${r.stdout}\n${r.stderr}`, report).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      // no write turn: no execute round, no file, no commit
      expect(
        r.lines.filter((l) => l.event === 'round' && l.action === 'execute_step'),
        report,
      ).toEqual([]);
      expect(existsSync(path.join(repo, 'a.txt'))).toBe(false);
      expect(gitSubjects(repo)).toEqual(['initial']);
    }, 120_000);
  });
}

describe('doctor without bubblewrap', () => {
  it('exits 1 and names apt-get install bubblewrap socat', async ({ ac, expect }) => {
    const { repo, env } = ac;
    // the repo's own git identity, so that bubblewrap is the only problem doctor can find
    git(repo, 'config', 'user.name', 'e2e');
    git(repo, 'config', 'user.email', 'e2e@example.invalid');
    const noBwrap = { ...env.env, PATH: pathWithoutBwrap(path.join(env.root, 'bin'), env.env.PATH ?? '') };
    const r = await agentCollab(['doctor'], { repo, env: noBwrap, timeoutMs: 30_000 });
    expect(r.code, describeRun(r)).toBe(1);
    expect(linesNaming(`${r.stdout}\n${r.stderr}`, FIX).length, describeRun(r)).toBeGreaterThan(0);
  }, 60_000);
});
