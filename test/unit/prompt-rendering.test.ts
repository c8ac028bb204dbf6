import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PromptName } from '../../src/persistence/prompt-templates.js';
import { BUILTIN_PROMPTS_DIR, renderPrompt } from '../../src/persistence/prompt-templates.js';
import { PROMPT_FILES, renderTemplate } from '../../src/core/prompt-template.js';
import { UserError } from '../../src/core/errors.js';

const ALL_VARS = {
  goal: 'GOAL-TEXT',
  conversation: 'CONVERSATION-TEXT',
  message: 'MESSAGE-TEXT',
  refined_goal: 'REFINED-TEXT',
  plan_content: 'PLAN-TEXT',
  iteration: 2,
  max_iterations: 5,
  previous_comments: 'PREVIOUS-TEXT',
  comments_content: 'COMMENTS-TEXT',
  step_number: 3,
  step_title: 'STEP-TITLE',
  previous_steps: 'PREVIOUS-STEPS',
  phase: 'REVIEW',
  task: 'TASK-TEXT',
  attempt: 2,
  max_attempts: 4,
  test_command: 'TEST-COMMAND',
  test_output: 'TEST-OUTPUT',
  code_review: 'CODE-REVIEW-TEXT',
  scope: 'SCOPE-TEXT',
  diff: 'DIFF-TEXT',
  test_results: 'TEST-RESULTS',
  round: 2,
  max_rounds: 3,
  comments: 'REVIEWER-COMMENTS',
  ledger: 'LEDGER-ENTRIES',
};

const EXPECTED_VARS: Record<PromptName, string[]> = {
  refine_goal: ['goal', 'conversation', 'message'],
  write_plan: ['goal', 'refined_goal'],
  review_plan: ['goal', 'plan_content', 'iteration', 'max_iterations', 'previous_comments', 'ledger'],
  respond_comments: ['goal', 'plan_content', 'comments_content', 'iteration', 'ledger'],
  execute_step: ['goal', 'plan_content', 'step_number', 'step_title', 'previous_steps', 'code_review'],
  recover_context: ['goal', 'plan_content', 'comments_content', 'phase', 'task'],
  fix_step: ['step_number', 'step_title', 'attempt', 'max_attempts', 'test_command', 'test_output'],
  test_command: ['step_number', 'step_title'],
  review_code: [
    'goal',
    'plan_content',
    'scope',
    'diff',
    'test_results',
    'round',
    'max_rounds',
    'previous_comments',
    'ledger',
  ],
  code_fix_steps: ['goal', 'plan_content', 'comments', 'round', 'ledger'],
  fix_code_review: ['step_number', 'step_title', 'attempt', 'comments', 'ledger'],
};

describe('renderTemplate', () => {
  it('substitutes variables, with or without spaces inside the braces', () => {
    expect(renderTemplate('a {{x}} b {{ y }} c {{  x  }}', { x: 'X', y: 7 }, 't.md')).toBe('a X b 7 c X');
  });

  it('substitutes in a single pass: values containing {{var}} stay as they are', () => {
    expect(renderTemplate('{{a}} {{b}}', { a: '{{b}}', b: 'B' }, 't.md')).toBe('{{b}} B');
  });

  it('keeps empty values and ignores unused ones', () => {
    expect(renderTemplate('[{{a}}]', { a: '', unused: 'u' }, 't.md')).toBe('[]');
  });

  it('names the template and the variable when a value is missing', () => {
    const run = () => renderTemplate('x {{plan_content}}', {}, '/x/prompts/03_review_plan.md');
    expect(run).toThrow(UserError);
    expect(run).toThrow('prompt template /x/prompts/03_review_plan.md uses {{plan_content}} but no value was given');
  });

  it('does not take values from the prototype', () => {
    expect(() => renderTemplate('{{toString}}', {}, 't.md')).toThrow(/uses \{\{toString\}\}/);
  });

  it('removes HTML comments, so templates can document their variables', () => {
    expect(renderTemplate('<!-- uses {{missing}} -->\nHello {{a}}<!-- note -->!', { a: 'A' }, 't.md')).toBe('Hello A!');
  });

  it('leaves things that are not variables alone', () => {
    expect(renderTemplate('{{ not a var }} {x} {{1x}}', {}, 't.md')).toBe('{{ not a var }} {x} {{1x}}');
  });
});

describe('renderPrompt with the built-in templates', () => {
  it('finds the package prompts/ directory', () => {
    expect(path.basename(BUILTIN_PROMPTS_DIR)).toBe('prompts');
    expect(path.resolve(BUILTIN_PROMPTS_DIR, '..')).toBe(path.resolve(import.meta.dirname, '../..'));
  });

  it.each(Object.keys(PROMPT_FILES) as PromptName[])('%s uses exactly its documented variables', async (name) => {
    const raw = await readFile(path.join(BUILTIN_PROMPTS_DIR, PROMPT_FILES[name]), 'utf8');
    const body = raw.replace(/<!--[\s\S]*?-->/g, '');
    const used = [...new Set([...body.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]))].sort();
    expect(used).toEqual([...EXPECTED_VARS[name]].sort());
    const text = await renderPrompt(name, ALL_VARS);
    expect(text).not.toMatch(/\{\{|<!--/);
    for (const v of EXPECTED_VARS[name]) expect(text).toContain(String(ALL_VARS[v as keyof typeof ALL_VARS]));
  });

  it('fails with a UserError naming the file when a variable is missing', async () => {
    const { plan_content: _omit, ...vars } = ALL_VARS;
    await expect(renderPrompt('review_plan', vars)).rejects.toThrow(
      `prompt template ${path.join(BUILTIN_PROMPTS_DIR, '03_review_plan.md')} uses {{plan_content}} but no value was given`,
    );
  });

  it('asks the reviewer for the exact marker on the first line', async () => {
    const text = await renderPrompt('review_plan', ALL_VARS);
    expect(text).toContain('FIRST LINE must be exactly `[APPROVED]` or exactly `[CHANGES_REQUIRED]`');
    expect(text).toContain('review round 2 of at most 5');
    // The ledger's live entries, and the one-line-per-id answer the ledger parser reads (core/ledger-parse.ts).
    expect(text).toContain('<ledger>\nLEDGER-ENTRIES\n</ledger>');
    expect(text).toContain('`L1: open — what is still missing`');
  });

  it('asks the planner to answer each ledger entry by its id with addressed or disputed', async () => {
    const text = await renderPrompt('respond_comments', ALL_VARS);
    expect(text).toContain('<ledger>\nLEDGER-ENTRIES\n</ledger>');
    expect(text).toContain('## Responses to review\nL1: addressed — ');
    expect(text).toContain('L2: disputed — ');
  });

  it('asks the code reviewer for the exact marker on the first line, with the diff and the test results', async () => {
    const text = await renderPrompt('review_code', ALL_VARS);
    expect(text).toContain('FIRST LINE must be exactly `[APPROVED]` or exactly `[CHANGES_REQUIRED]`');
    expect(text).toContain('code review round 2 of at most 3');
    expect(text).toContain('<diff>\nDIFF-TEXT\n</diff>');
    expect(text).toContain('TEST-RESULTS');
  });

  it('asks the executor for a Summary: line and not to commit', async () => {
    const text = await renderPrompt('execute_step', ALL_VARS);
    expect(text).toContain('Summary:');
    expect(text).toMatch(/Do not commit/);
  });
});

describe('renderPrompt overrides and errors', () => {
  it("prefers the user's override file and falls back to the built-in one", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'prompts-'));
    await writeFile(path.join(dir, '02_write_plan.md'), 'custom plan for {{goal}}');
    expect(await renderPrompt('write_plan', ALL_VARS, { overrideDir: dir })).toBe('custom plan for GOAL-TEXT');
    expect(await renderPrompt('refine_goal', ALL_VARS, { overrideDir: dir })).toContain('MESSAGE-TEXT');
  });

  it('names the override file in missing-variable errors', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'prompts-'));
    await writeFile(path.join(dir, '05_execute_step.md'), 'do {{stepp}}');
    await expect(renderPrompt('execute_step', ALL_VARS, { overrideDir: dir })).rejects.toThrow(
      `prompt template ${path.join(dir, '05_execute_step.md')} uses {{stepp}} but no value was given`,
    );
  });

  it('an edited template is used for the next prompt', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'prompts-'));
    const file = path.join(dir, '01_refine_goal.md');
    await writeFile(file, 'one {{goal}}');
    expect(await renderPrompt('refine_goal', ALL_VARS, { builtinDir: dir })).toBe('one GOAL-TEXT');
    await writeFile(file, 'two {{goal}}!');
    expect(await renderPrompt('refine_goal', ALL_VARS, { builtinDir: dir })).toBe('two GOAL-TEXT!');
  });

  it('rejects an unknown template name or a missing template file with a UserError', async () => {
    await expect(renderPrompt('nope' as PromptName, {})).rejects.toThrow(/unknown prompt template "nope"/);
    const empty = await mkdtemp(path.join(tmpdir(), 'prompts-'));
    await expect(renderPrompt('write_plan', ALL_VARS, { builtinDir: empty })).rejects.toBeInstanceOf(UserError);
    await expect(renderPrompt('write_plan', ALL_VARS, { builtinDir: empty })).rejects.toThrow(
      /02_write_plan\.md not found/,
    );
  });
});
