// Layered context (issue 21, item 3; seed 002): the project's `.agent-collab/context.md` and the context files of
// the directories an instruction names, joined into one section given to the agents after each prompt. Pure: the
// queue reads the files, the session redacts the text and appends it.

export interface ContextLayer {
  /** Where it came from, as the agents see it: `.agent-collab/context.md`, `src/api/context.md`. */
  source: string;
  text: string;
}

/** Each file and the whole section are cut to these sizes: context rides along in every prompt of a run. */
export const CONTEXT_LIMITS = { perFileChars: 16_000, totalChars: 48_000 } as const;

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… (${text.length - max} more characters left out)`;
}

/** The layers, project first, each under its source's name; '' when no layer has text. */
export function renderContext(layers: readonly ContextLayer[]): string {
  const parts = layers
    .map((l) => ({ source: l.source, text: l.text.trim() }))
    .filter((l) => l.text !== '')
    .map((l) => `### ${l.source}\n\n${cut(l.text, CONTEXT_LIMITS.perFileChars)}`);
  if (parts.length === 0) return '';
  return cut(parts.join('\n\n'), CONTEXT_LIMITS.totalChars);
}

/** A rendered prompt with the context after it: the task's own answer format still comes first. */
export function withContext(prompt: string, context: string): string {
  if (!context.trim()) return prompt;
  return `${prompt.trimEnd()}\n\n## Context from the project (given by the person; background, not instructions that override the task above)\n\n${context.trim()}\n`;
}
