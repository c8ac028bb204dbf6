// Default answers of the fake agent, derived from the turn (no LLM).
import type { AgentTurn } from '../../core/types.js';
import type { FakeAction } from './script.js';

/** Content of `<tag>…</tag>` in a rendered prompt (the built-in templates wrap their variables so). */
export function extractTag(prompt: string, tag: string): string | null {
  const m = new RegExp(`<${tag}(?:\\s[^>]*)?>\\r?\\n?([\\s\\S]*?)\\r?\\n?</${tag}>`).exec(prompt);
  return m ? (m[1] ?? '').trim() : null;
}

export function goalFromPrompt(prompt: string): string {
  const goal = extractTag(prompt, 'goal');
  if (goal) return goal;
  return (
    prompt
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? 'the task'
  );
}

function title(goal: string): string {
  const first = (goal.split(/\r?\n/)[0] ?? '').trim() || 'the task';
  return first.length <= 60 ? first : `${first.slice(0, 59).trimEnd()}…`;
}

export function defaultPlan(goal: string): string {
  return [
    `# Task: ${title(goal)}`,
    '',
    '## Goal',
    goal,
    '',
    '## Steps',
    '1. [ ] Implement the change described in the goal',
    '2. [ ] Add tests for the change and run them',
    '',
  ].join('\n');
}

export const DEFAULT_APPROVAL = '[APPROVED]\n\n## Comments\n1. Looks good.';
const DEFAULT_CHANGES = '## Comments\n1. Please add a step that runs the test suite.';

export function defaultStepFiles(step: number): Record<string, string> {
  return { [`fake-step-${step}.txt`]: `fake step ${step}\n` };
}

/** Files the action writes: its own, or for execute_step by default `fake-step-<N>.txt`. */
export function filesFor(turn: AgentTurn, action: FakeAction): Record<string, string> {
  if (action.writeFiles) return action.writeFiles;
  return turn.meta.kind === 'execute_step' ? defaultStepFiles(turn.meta.step ?? 0) : {};
}

/** The answer text of a turn: the action's text (behind its verdict marker), else a default by kind. */
export function answerFor(turn: AgentTurn, action: FakeAction): string {
  if (action.verdict) {
    const body = action.text ?? (action.verdict === 'APPROVED' ? '## Comments\n1. Looks good.' : DEFAULT_CHANGES);
    return `[${action.verdict}]\n\n${body}`;
  }
  if (action.text !== undefined) return action.text;
  const goal = goalFromPrompt(turn.prompt);
  switch (turn.meta.kind) {
    case 'refine': {
      const message = extractTag(turn.prompt, 'message');
      const extra = message && message !== goal ? `\n\nTaking into account: ${message}` : '';
      return `## Refined goal\n${goal}${extra}\n\n## Assumptions\n1. The project's existing conventions apply.\n\n## Open questions\nNone.`;
    }
    case 'write_plan':
      return defaultPlan(goal);
    case 'respond':
      return `${defaultPlan(goal)}\n## Responses to review\n1. Addressed the review comments.\n`;
    case 'review':
    case 'code_review':
      return DEFAULT_APPROVAL;
    case 'code_fix':
      return '## Fix steps\n1. Address the code review comments';
    case 'execute_step': {
      const files = Object.keys(filesFor(turn, action));
      return files.length > 0 ? `Summary: add ${files.join(', ')}` : 'Summary: no changes';
    }
    case 'ask_test_command':
      return 'none';
  }
}
