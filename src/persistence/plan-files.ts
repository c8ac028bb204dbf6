import { readFile } from 'node:fs/promises';
import { EXIT, UserError } from '../core/errors.js';
import { inOrder, writeAtomic } from './atomic-write.js';
import { cleanAgentMarkdown, parseFrontmatter, renderFrontmatter } from './frontmatter.js';

export type PlanStatus = 'draft' | 'reviewing' | 'approved';
export type CommentsStatus = 'APPROVED' | 'CHANGES_REQUIRED';

export interface PlanMeta {
  version: number;
  status: PlanStatus;
  iteration: number;
  author: 'planner' | 'user';
  /** ISO time, or null when the file has none. */
  updated: string | null;
}

export interface CommentsMeta {
  status: CommentsStatus;
  iteration: number;
  author: 'reviewer';
  updated: string | null;
}

const PLAN_STATUSES: readonly PlanStatus[] = ['draft', 'reviewing', 'approved'];

/** The body a reader of `text` (plan.md or comments.md) gets: what follows the frontmatter, leading blank lines dropped. */
export async function bodyOfText(text: string, file: string): Promise<string> {
  return stripLeadingBlankLines((await parseFrontmatter(text, file)).content);
}

/** Writes plan.md (atomic, durable): frontmatter, a blank line, the cleaned body. Resolves to the text written. */
export async function writePlan(
  file: string,
  plan: { body: string; status: PlanStatus; iteration: number; author?: 'planner' | 'user' },
): Promise<string> {
  const meta = {
    version: 1,
    status: plan.status,
    iteration: plan.iteration,
    author: plan.author ?? 'planner',
    updated: nowIso(),
  };
  const text = await compose(meta, cleanAgentMarkdown(plan.body));
  await inOrder(file, () => writeAtomic(file, text));
  return text;
}

/** null when the file does not exist. Missing or unknown frontmatter values fall back to draft / 0 / planner. */
export async function readPlan(file: string): Promise<{ meta: PlanMeta; body: string } | null> {
  const parsed = await readMarkdown(file);
  if (!parsed) return null;
  const d = parsed.data;
  const meta: PlanMeta = {
    version: typeof d.version === 'number' ? d.version : 1,
    status: PLAN_STATUSES.includes(d.status as PlanStatus) ? (d.status as PlanStatus) : 'draft',
    iteration: toCount(d.iteration),
    author: d.author === 'user' ? 'user' : 'planner',
    updated: typeof d.updated === 'string' ? d.updated : null,
  };
  return { meta, body: stripLeadingBlankLines(parsed.content) };
}

/** Changes `status` and `updated` in plan.md's frontmatter; the body stays byte for byte. */
export async function setPlanStatus(file: string, status: PlanStatus): Promise<void> {
  await inOrder(file, async () => {
    const parsed = await readMarkdown(file);
    if (!parsed)
      throw new UserError(`cannot set the plan status: ${file} does not exist; write a plan first`, EXIT.badInput);
    const data = { version: 1, ...parsed.data, status, updated: nowIso() };
    const rest = parsed.hadFrontmatter ? parsed.content : `\n${parsed.content}`;
    await writeAtomic(file, (await renderFrontmatter(data)) + rest);
  });
}

/**
 * Replaces plan.md's body (as given, not cleaned), keeping its frontmatter except `updated`. Creates a draft if
 * missing. Resolves to the text written.
 */
export function writePlanBody(file: string, body: string): Promise<string> {
  return inOrder(file, async () => {
    const parsed = await readMarkdown(file);
    const base = parsed?.data ?? { version: 1, status: 'draft', iteration: 0, author: 'planner' };
    const text = await compose({ ...base, updated: nowIso() }, body);
    await writeAtomic(file, text);
    return text;
  });
}

/**
 * Writes comments.md (atomic, durable); the body starts with the `[APPROVED]` / `[CHANGES_REQUIRED]` marker line that
 * matches `status`. Resolves to the text written.
 */
export async function writeComments(
  file: string,
  comments: { body: string; status: CommentsStatus; iteration: number },
): Promise<string> {
  const meta = { status: comments.status, iteration: comments.iteration, author: 'reviewer', updated: nowIso() };
  const body = withVerdictMarker(cleanAgentMarkdown(comments.body), comments.status);
  const text = await compose(meta, body);
  await inOrder(file, () => writeAtomic(file, text));
  return text;
}

/** null when the file does not exist. The status falls back to the body's marker line, then CHANGES_REQUIRED. */
export async function readComments(file: string): Promise<{ meta: CommentsMeta; body: string } | null> {
  const parsed = await readMarkdown(file);
  if (!parsed) return null;
  const body = stripLeadingBlankLines(parsed.content);
  const d = parsed.data;
  const marker = /^\s*\[(APPROVED|CHANGES_REQUIRED)\]/.exec(body)?.[1] as CommentsStatus | undefined;
  const status: CommentsStatus =
    d.status === 'APPROVED' || d.status === 'CHANGES_REQUIRED' ? d.status : (marker ?? 'CHANGES_REQUIRED');
  const meta: CommentsMeta = {
    status,
    iteration: toCount(d.iteration),
    author: 'reviewer',
    updated: typeof d.updated === 'string' ? d.updated : null,
  };
  return { meta, body };
}

/** Makes the first non-empty line exactly `[STATUS]`: keeps a matching marker, replaces the other one, else prepends. */
export function withVerdictMarker(body: string, status: CommentsStatus): string {
  const marker = `[${status}]`;
  const m = /^\s*\[(APPROVED|CHANGES_REQUIRED)\][ \t]*(.*)/.exec(body);
  if (!m) return body === '' ? `${marker}\n` : `${marker}\n\n${body}`;
  const restOfLine = (m[2] ?? '').trim();
  const after = body.slice(m[0].length).replace(/^\r?\n/, '');
  return [marker, restOfLine, after].filter((part) => part !== '').join('\n');
}

async function readMarkdown(
  file: string,
): Promise<{ data: Record<string, unknown>; content: string; hadFrontmatter: boolean } | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const { data, content } = await parseFrontmatter(text, file);
  return { data, content, hadFrontmatter: content !== text };
}

async function compose(meta: Record<string, unknown>, body: string): Promise<string> {
  return `${await renderFrontmatter(meta)}\n${body.trimEnd()}\n`;
}

function stripLeadingBlankLines(text: string): string {
  return text.replace(/^(?:[ \t]*\r?\n)+/, '');
}

function toCount(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}

function nowIso(): string {
  return new Date().toISOString();
}
