// The built CLI (the bundle, with gray-matter and its YAML parser inside) writes plan.md and comments.md with their
// frontmatter and reads them back through a whole run.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { readWork, tempRepoWithFakeScript } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('the built CLI', () => {
  it('runs to DONE with frontmatter in plan.md and comments.md', async () => {
    const repo = tempRepoWithFakeScript({
      rules: [{ when: { kind: 'review' }, do: { verdict: 'APPROVED', text: 'Fine.' } }],
    });
    cleanup = repo.cleanup;
    const r = await runCli(['run', '--goal', 'g', '--auto', '--auto-approve', '--json'], {
      cwd: repo.dir,
      home: repo.home,
    }).done;
    expect(r.code).toBe(0);
    expect(readWork(repo.dir, 'plan.md')).toMatch(/^---\n(.*\n)*status: approved\n/);
    expect(readWork(repo.dir, 'comments.md')).toMatch(/^---\n(.*\n)*status: APPROVED\n/);
  });
});
