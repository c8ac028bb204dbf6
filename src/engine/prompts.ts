// Prompt templates: one markdown file per phase in `prompts/`, with `{{var}}` substitution.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fromPackageRoot } from '../package-root.js';
import { UserError } from '../persistence/errors.js';

export type PromptName =
  | 'refine_goal'
  | 'write_plan'
  | 'review_plan'
  | 'respond_comments'
  | 'execute_step'
  | 'recover_context'
  | 'fix_step'
  | 'test_command';

export type PromptVars = Record<string, string | number>;

/** File name of each template, inside the built-in or the user's override directory. */
export const PROMPT_FILES: Readonly<Record<PromptName, string>> = {
  refine_goal: '01_refine_goal.md',
  write_plan: '02_write_plan.md',
  review_plan: '03_review_plan.md',
  respond_comments: '04_respond_comments.md',
  execute_step: '05_execute_step.md',
  recover_context: '06_recover_context.md',
  fix_step: '07_fix_step.md',
  test_command: '08_test_command.md',
};

/** The package's `prompts/` dir (next to its package.json; this module may be a source, built or bundled file). */
export const BUILTIN_PROMPTS_DIR = fromPackageRoot('prompts');

const VAR_RE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const COMMENT_RE = /<!--[\s\S]*?-->[ \t]*(?:\r?\n)?/g;

/**
 * Substitutes `{{ name }}` in `text` in a single pass (values are never re-scanned).
 * HTML comments (`<!-- ... -->`) in the template are removed first: templates use them for notes.
 * A variable without a value throws a UserError naming `templateNameForErrors` and the variable.
 */
export function renderTemplate(text: string, vars: PromptVars, templateNameForErrors: string): string {
  const body = text.replace(COMMENT_RE, '').replace(/^\s*\n/, '');
  return body.replace(VAR_RE, (_match, name: string) => {
    const value: unknown = Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : undefined;
    if (value === undefined || value === null) {
      throw new UserError(`prompt template ${templateNameForErrors} uses {{${name}}} but no value was given`);
    }
    return String(value);
  });
}

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
