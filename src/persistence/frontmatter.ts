import type grayMatter from 'gray-matter';
import { EXIT, UserError } from '../core/errors.js';

export interface FrontmatterFile {
  data: Record<string, unknown>;
  /** Everything after the closing `---` line, byte for byte. */
  content: string;
}

let loading: Promise<typeof grayMatter> | null = null;

/** gray-matter (with js-yaml, ~125 KB of JavaScript) loads with the first plan or comments file, not at start-up. */
function loadMatter(): Promise<typeof grayMatter> {
  loading ??= import('gray-matter').then((m) => m.default);
  return loading;
}

/** Splits a markdown file into YAML frontmatter and the rest. Dates in the YAML come back as ISO strings. */
export async function parseFrontmatter(text: string, file: string): Promise<FrontmatterFile> {
  const matter = await loadMatter();
  try {
    // Passing options bypasses gray-matter's cache, which would share parsed objects between calls.
    const parsed = matter(text, {});
    return { data: normalizeDates(parsed.data) as Record<string, unknown>, content: parsed.content };
  } catch (err) {
    const reason = ((err as Error).message.split('\n')[0] ?? '').trim().replace(/:$/, '');
    throw new UserError(
      `${file} has invalid frontmatter (${reason}); fix or delete the --- block at the top of the file`,
      EXIT.badInput,
    );
  }
}

/** `---\n<yaml>---\n`, or '' for no data. Key order follows `data`. */
export async function renderFrontmatter(data: Record<string, unknown>): Promise<string> {
  const matter = await loadMatter();
  return matter.stringify({ content: '' }, data).slice(0, -1);
}

function normalizeDates(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (Array.isArray(value)) return value.map(normalizeDates);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalizeDates(v)]));
  }
  return value;
}

const LEADING_FRONTMATTER = /^---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Agents sometimes wrap the whole answer in a ```markdown fence or start it with their own frontmatter.
 * Removes both (fence first, then frontmatter) and trims surrounding blank lines.
 */
export function cleanAgentMarkdown(text: string): string {
  let body = text.replace(/^\uFEFF/, '').trim();
  body = unwrapWholeFence(body);
  body = body.replace(LEADING_FRONTMATTER, '').trim();
  return unwrapWholeFence(body);
}

function unwrapWholeFence(text: string): string {
  const lines = text.split(/\r?\n/);
  const open = /^(`{3,}|~{3,})[ \t]*(?:markdown|md)?[ \t]*$/i.exec(lines[0] ?? '');
  const fence = open?.[1];
  if (!fence || lines.length < 2 || (lines[lines.length - 1] ?? '').trim() !== fence) return text;
  const inner = lines.slice(1, -1);
  // Walk the inner fences: `lang` lines open, bare lines close. A bare line with nothing open would end
  // our fence early, so then the fence is not one block around the whole answer.
  const fenceLine = new RegExp(`^ {0,3}(\\${fence[0]}{${fence.length},})(.*)$`);
  let depth = 0;
  for (const line of inner) {
    const m = fenceLine.exec(line);
    if (!m) continue;
    if ((m[2] ?? '').trim() !== '') depth++;
    else if (depth > 0) depth--;
    else return text;
  }
  return depth === 0 ? inner.join('\n').trim() : text;
}
