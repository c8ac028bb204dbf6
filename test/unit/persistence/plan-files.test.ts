import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import {
  readComments,
  readPlan,
  setPlanStatus,
  writeComments,
  writePlan,
  writePlanBody,
} from '../../../src/persistence/plan-files.js';
import { tempDir } from './tmp-dir.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const PLAN = '# Task: demo\n\n## Steps\n1. [ ] one\n2. [ ] two\n';

/** A path in a fresh, existing workdir. */
async function file(name: string) {
  const dir = path.join(await tempDir(), '.agent-collab');
  await mkdir(dir);
  return path.join(dir, name);
}

describe('plan.md', () => {
  it('writes frontmatter then the body, and reads both back', async () => {
    const f = await file('plan.md');
    await writePlan(f, { body: PLAN, status: 'draft', iteration: 2 });
    const text = await readFile(f, 'utf8');
    expect(text).toMatch(
      /^---\nversion: 1\nstatus: draft\niteration: 2\nauthor: planner\nupdated: '?[\dT:.Z-]+'?\n---\n\n# Task: demo\n/,
    );
    const plan = await readPlan(f);
    expect(plan?.body).toBe(PLAN);
    expect(plan?.meta).toMatchObject({ version: 1, status: 'draft', iteration: 2, author: 'planner' });
    expect(plan?.meta.updated).toMatch(ISO);
    expect(await readdir(path.dirname(f))).toEqual(['plan.md']);
  });

  it('returns null when the file is missing', async () => {
    expect(await readPlan(await file('plan.md'))).toBeNull();
    expect(await readComments(await file('comments.md'))).toBeNull();
  });

  it('strips the agent’s own frontmatter and a whole-answer ```markdown fence', async () => {
    const f = await file('plan.md');
    const wrapped = '```markdown\n---\nstatus: approved\ntitle: x\n---\n' + PLAN + '\n```ts\nconst a = 1;\n```\n```\n';
    await writePlan(f, { body: wrapped, status: 'reviewing', iteration: 1, author: 'user' });
    const plan = await readPlan(f);
    expect(plan?.body).toBe(PLAN + '\n```ts\nconst a = 1;\n```\n');
    expect(plan?.meta).toMatchObject({ status: 'reviewing', author: 'user' });
  });

  it('leaves an answer alone that merely starts and ends with separate code blocks', async () => {
    const f = await file('plan.md');
    const body = '```\ncode\n```\n\ntext\n\n```\nmore\n```';
    await writePlan(f, { body, status: 'draft', iteration: 0 });
    expect((await readPlan(f))?.body).toBe(`${body}\n`);
  });

  it('reads an unquoted YAML date as an ISO string', async () => {
    const f = await file('plan.md');
    await writeFile(f, '---\nversion: 1\nstatus: approved\niteration: 3\nupdated: 2026-02-05T10:30:00Z\n---\n\nbody\n');
    expect((await readPlan(f))?.meta).toEqual({
      version: 1,
      status: 'approved',
      iteration: 3,
      author: 'planner',
      updated: '2026-02-05T10:30:00.000Z',
    });
  });

  it('setPlanStatus rewrites only the frontmatter, keeping the body byte for byte and unknown keys', async () => {
    const f = await file('plan.md');
    const body = '\n\n  # odd spacing  \r\n\n---\nnot frontmatter\n---\nno trailing newline';
    await writeFile(
      f,
      `---\nversion: 1\nstatus: draft\niteration: 4\nauthor: user\nupdated: 2020-01-01T00:00:00Z\nmine: kept\n---\n${body}`,
    );
    await setPlanStatus(f, 'approved');
    const text = await readFile(f, 'utf8');
    expect(text.endsWith(`\n---\n${body}`)).toBe(true);
    const plan = await readPlan(f);
    expect(plan?.meta).toMatchObject({ status: 'approved', iteration: 4, author: 'user' });
    expect(plan?.meta.updated).not.toBe('2020-01-01T00:00:00.000Z');
    expect(text).toContain('mine: kept');
  });

  it('setPlanStatus adds frontmatter to a plan without any', async () => {
    const f = await file('plan.md');
    await writeFile(f, PLAN);
    await setPlanStatus(f, 'reviewing');
    expect(await readPlan(f)).toMatchObject({ meta: { status: 'reviewing' }, body: PLAN });
  });

  it('setPlanStatus on a missing plan is a UserError', async () => {
    await expect(setPlanStatus(await file('plan.md'), 'approved')).rejects.toBeInstanceOf(UserError);
  });

  it('writePlanBody keeps the frontmatter and replaces the body', async () => {
    const f = await file('plan.md');
    await writePlan(f, { body: PLAN, status: 'approved', iteration: 3 });
    await writePlanBody(f, PLAN.replace('1. [ ]', '1. [x]'));
    expect(await readPlan(f)).toMatchObject({
      meta: { status: 'approved', iteration: 3 },
      body: PLAN.replace('1. [ ]', '1. [x]'),
    });
  });

  it('bad YAML in the frontmatter is a one-line UserError naming the file', async () => {
    const f = await file('plan.md');
    await writeFile(f, '---\nstatus: [unclosed\niteration: : :\n---\nbody\n');
    const err = await readPlan(f).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).message).toContain(f);
    expect((err as UserError).message).toContain('fix or delete the --- block');
    expect((err as UserError).message).not.toContain('\n');
    await expect(setPlanStatus(f, 'approved')).rejects.toBeInstanceOf(UserError);
    expect(await readFile(f, 'utf8')).toContain('[unclosed'); // untouched
  });
});

describe('comments.md', () => {
  it('writes the reviewer frontmatter and puts the marker first', async () => {
    const f = await file('comments.md');
    await writeComments(f, { body: '## Comments\n1. fix it\n', status: 'CHANGES_REQUIRED', iteration: 2 });
    const text = await readFile(f, 'utf8');
    expect(text).toMatch(
      /^---\nstatus: CHANGES_REQUIRED\niteration: 2\nauthor: reviewer\nupdated: .+\n---\n\n\[CHANGES_REQUIRED\]\n\n## Comments\n/,
    );
    const c = await readComments(f);
    expect(c?.meta).toMatchObject({ status: 'CHANGES_REQUIRED', iteration: 2, author: 'reviewer' });
    expect(c?.body).toBe('[CHANGES_REQUIRED]\n\n## Comments\n1. fix it\n');
  });

  it.each([
    ['[APPROVED]\n\nLooks good.', 'APPROVED', '[APPROVED]\n\nLooks good.\n'],
    ['\n\n[APPROVED]\nLooks good.', 'APPROVED', '[APPROVED]\nLooks good.\n'],
    ['[APPROVED] Looks good.', 'APPROVED', '[APPROVED]\nLooks good.\n'],
    ['[APPROVED]\nbut no', 'CHANGES_REQUIRED', '[CHANGES_REQUIRED]\nbut no\n'],
    ['```markdown\n[APPROVED]\nok\n```', 'APPROVED', '[APPROVED]\nok\n'],
    ['', 'APPROVED', '[APPROVED]\n'],
  ] as const)('body %j with %s', async (body, status, expected) => {
    const f = await file('comments.md');
    await writeComments(f, { body, status, iteration: 1 });
    expect((await readComments(f))?.body).toBe(expected);
  });
});
