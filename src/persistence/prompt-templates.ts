// Prompt templates on disk: the built-in `prompts/` dir and the user's overrides, rendered by the core.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fromPackageRoot } from '../package-root.js';
import { UserError } from '../core/errors.js';
import { PROMPT_FILES, renderTemplate, type PromptName, type PromptVars } from '../core/prompt-template.js';

export type { PromptName, PromptVars } from '../core/prompt-template.js';

/** The package's `prompts/` dir (next to its package.json; this module may be a source, built or bundled file). */
export const BUILTIN_PROMPTS_DIR = fromPackageRoot('prompts');

async function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** Which file `renderPrompt` uses: the override when it exists, else the built-in one. Read afresh each time, so an edit of an override counts at once. */
async function promptFile(name: PromptName, opts: { overrideDir?: string; builtinDir?: string }): Promise<string> {
  if (!Object.prototype.hasOwnProperty.call(PROMPT_FILES, name)) {
    throw new UserError(`unknown prompt template "${String(name)}" (known: ${Object.keys(PROMPT_FILES).join(', ')})`);
  }
  const fileName = PROMPT_FILES[name];
  if (opts.overrideDir) {
    const file = path.resolve(opts.overrideDir, fileName);
    if (await isFile(file)) return file;
  }
  const file = path.resolve(opts.builtinDir ?? BUILTIN_PROMPTS_DIR, fileName);
  if (!(await isFile(file)))
    throw new UserError(`prompt template ${file} not found; reinstall agent-collab or fix the prompts directory`);
  return file;
}

/** Renders the template for `name`; a user's `<overrideDir>/NN_<name>.md` wins over the built-in one. */
export async function renderPrompt(
  name: PromptName,
  vars: PromptVars,
  opts: { overrideDir?: string; builtinDir?: string } = {},
): Promise<string> {
  const file = await promptFile(name, opts);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UserError(`cannot read prompt template ${file}: ${(err as Error).message}`);
  }
  return renderTemplate(text, vars, file);
}
