// Prompt templates on disk: the built-in `prompts/` dir and the user's overrides, rendered by the core.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fromPackageRoot } from '../package-root.js';
import { UserError } from '../core/errors.js';
import { PROMPT_FILES, renderTemplate, type PromptName, type PromptVars } from '../core/prompt-template.js';

export type { PromptName, PromptVars } from '../core/prompt-template.js';

/** The package's `prompts/` dir (next to its package.json; this module may be a source, built or bundled file). */
export const BUILTIN_PROMPTS_DIR = fromPackageRoot('prompts');

interface CacheEntry {
  mtimeMs: number;
  size: number;
  text: string;
}
const cache = new Map<string, CacheEntry>();

/** Forgets cached template files (tests, or after the user edited an override). */
export function clearPromptCache(): void {
  cache.clear();
}

// Synchronous stat and read: every round's prompt waits for them, and a template is a few kilobytes, where each
// asynchronous call costs a thread-pool round trip (several milliseconds while the CLIs keep both cores busy).
async function statFile(file: string): Promise<{ mtimeMs: number; size: number } | null> {
  try {
    const s = statSync(file);
    return s.isFile() ? { mtimeMs: s.mtimeMs, size: s.size } : null;
  } catch {
    return null;
  }
}

/** Reads a template, cached by path; re-read only when its mtime or size changed. */
async function readTemplate(file: string, info: { mtimeMs: number; size: number }): Promise<string> {
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit.text;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UserError(`cannot read prompt template ${file}: ${(err as Error).message}`);
  }
  cache.set(file, { mtimeMs: info.mtimeMs, size: info.size, text });
  return text;
}

/** Which file `renderPrompt` would use: the override when it exists, else the built-in one. */
export async function resolvePromptFile(
  name: PromptName,
  opts: { overrideDir?: string; builtinDir?: string } = {},
): Promise<{ file: string; info: { mtimeMs: number; size: number } }> {
  if (!Object.prototype.hasOwnProperty.call(PROMPT_FILES, name)) {
    throw new UserError(`unknown prompt template "${String(name)}" (known: ${Object.keys(PROMPT_FILES).join(', ')})`);
  }
  const fileName = PROMPT_FILES[name];
  if (opts.overrideDir) {
    const file = path.resolve(opts.overrideDir, fileName);
    const info = await statFile(file);
    if (info) return { file, info };
  }
  const file = path.resolve(opts.builtinDir ?? BUILTIN_PROMPTS_DIR, fileName);
  const info = await statFile(file);
  if (!info) throw new UserError(`prompt template ${file} not found; reinstall agent-collab or fix the prompts directory`);
  return { file, info };
}

/** Renders the template for `name`; a user's `<overrideDir>/NN_<name>.md` wins over the built-in one. */
export async function renderPrompt(
  name: PromptName,
  vars: PromptVars,
  opts: { overrideDir?: string; builtinDir?: string } = {},
): Promise<string> {
  const { file, info } = await resolvePromptFile(name, opts);
  const text = await readTemplate(file, info);
  return renderTemplate(text, vars, file);
}
