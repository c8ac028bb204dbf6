// A run's branch and worktree dir are named after the goal's first words (`run --worktree`, `run({ worktree: true })`):
// a token or password in the goal must not become part of a git ref (pushed with the branch, listed by `ls`, kept
// in the reflog) nor of a path. Known formats, secret-looking values and agent-collab's secret variables all go.
import { describe, expect, it } from 'vitest';
import { slugOf } from '../../../src/core/slug.js';

const GITHUB = 'ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5';

describe('the slug of a goal holding a secret', () => {
  it('leaves out a token of a known format, first word or not', () => {
    for (const goal of [`${GITHUB} rotate it`, `rotate ${GITHUB}`, `use key ${GITHUB}, then deploy`]) {
      const slug = slugOf(goal);
      expect(slug, goal).not.toContain('ab3de5');
      expect(slug, goal).toMatch(/^[a-z0-9-]+$/);
    }
    expect(slugOf(`rotate ${GITHUB} now`)).toBe('rotate-now');
  });

  it('leaves out a password given as an assignment, keeping its name', () => {
    expect(slugOf('set password=hunter2hunter2 in the db')).toBe('set-password-in-the-db');
  });

  it('leaves out a random-looking word of no known format', () => {
    expect(slugOf('deploy with Zq8xYp3LmN7vTr2KsW9d now')).toBe('deploy-with-now');
  });

  it('leaves out the value of one of agent-collab’s secret variables, however plain it looks', () => {
    const known = [{ name: 'DB_PASSWORD', value: 'correcthorsebattery' }];
    expect(slugOf('login with correcthorsebattery please', known)).toBe('login-with-please');
  });

  it('still names an ordinary goal by its words', () => {
    expect(slugOf('Fix issue-1234 in v2.3.1 of the parser')).toBe('fix-issue-1234-in-v2-3-1-of-the-parser');
    expect(slugOf(GITHUB)).toBe('run');
  });
});
