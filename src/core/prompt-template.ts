// Prompt templates: which file each round's template is in, and `{{var}}` substitution (loading is persistence's).
import { UserError } from './errors.js';

export type PromptName =
  | 'refine_goal'
  | 'write_plan'
  | 'review_plan'
  | 'respond_comments'
  | 'execute_step'
  | 'recover_context'
  | 'fix_step'
  | 'test_command'
  | 'review_code'
  | 'code_fix_steps'
  | 'fix_code_review';

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
  review_code: '09_review_code.md',
  code_fix_steps: '10_code_fix_steps.md',
  fix_code_review: '11_fix_code_review.md',
};

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
