// An instruction file of the inbox queue (issue 21, item 3; seed 002): `.agent-collab/inbox/<name>.md`, YAML
// frontmatter (type, priority, constraints, expected output, context dirs) and a body that is the goal. A file that
// cannot be read as one is not run: the queue reports it FAILED with the one-line reason this module gives.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from '../persistence/zod.js';
import { parseFrontmatter } from '../persistence/frontmatter.js';

const text = z.string().check(z.minLength(1));
const textOrList = z.union([text, z.array(text)]);

/** Unknown keys are refused: a misspelt `priorty` would otherwise be silently ignored. */
const frontmatterSchema = z.strictObject({
  type: z.optional(text),
  /** Higher runs first; instructions of one priority run in name order. */
  priority: z.optional(z.int().check(z.minimum(-1000), z.maximum(1000))),
  constraints: z.optional(textOrList),
  expected_output: z.optional(textOrList),
  /** Directories (relative to the repo) whose `context.md` is given to the agents with the project's. */
  context: z.optional(textOrList),
  // Seed 002's bookkeeping fields, accepted and kept in the report.
  id: z.optional(text),
  created_at: z.optional(text),
});

export interface Instruction {
  /** The file's name without `.md`: the report is `reports/<name>.md`. */
  name: string;
  file: string;
  type: string;
  priority: number;
  constraints: string[];
  expectedOutput: string[];
  contextDirs: string[];
  id: string | null;
  /** What the run is asked to do: the body, then the constraints and the expected output. */
  goal: string;
  /** sha256 of the file: a run that waited goes on only while the file is the one it was started from. */
  digest: string;
}

export type ParsedInstruction = { ok: true; instruction: Instruction } | { ok: false; name: string; reason: string };

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function issueLine(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid frontmatter';
  const where = issue.path.length ? `"${issue.path.join('.')}"` : 'the frontmatter';
  if (issue.code === 'unrecognized_keys')
    return `unknown frontmatter key(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  return `${where}: ${issue.message}`;
}

/** The goal a run gets: the body, and the constraints and expected output as lists under it. */
export function goalOf(body: string, type: string, constraints: string[], expected: string[]): string {
  const parts = [body.trim()];
  if (type !== 'task') parts.push(`Type of work: ${type}`);
  if (constraints.length) parts.push(`Constraints:\n${constraints.map((c) => `- ${c}`).join('\n')}`);
  if (expected.length) parts.push(`Expected output:\n${expected.map((e) => `- ${e}`).join('\n')}`);
  return parts.join('\n\n');
}

/** A context dir must stay inside the repo: an instruction must not hand the agents files from elsewhere. */
function checkDirs(dirs: string[]): string | null {
  for (const d of dirs) {
    const norm = path.posix.normalize(d.replace(/\\/g, '/'));
    if (path.isAbsolute(d) || norm === '..' || norm.startsWith('../'))
      return `context dir "${d}" is outside the repository; name a directory relative to the repo root`;
  }
  return null;
}

export async function parseInstruction(file: string): Promise<ParsedInstruction> {
  const name = path.basename(file, '.md');
  const fail = (reason: string): ParsedInstruction => ({ ok: false, name, reason });
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (err) {
    return fail(`cannot be read (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  let data: Record<string, unknown>;
  let body: string;
  try {
    ({ data, content: body } = await parseFrontmatter(raw, `${name}.md`));
  } catch (err) {
    // Its message starts with the file's name, which the queue puts before every reason.
    return fail(((err as Error).message.split('\n')[0] ?? 'has invalid frontmatter').replace(`${name}.md `, ''));
  }
  const parsed = z.safeParse(frontmatterSchema, data);
  if (!parsed.success) return fail(issueLine(parsed.error));
  if (!body.trim()) return fail('has no goal: write what to do below the frontmatter');
  const fm = parsed.data;
  const contextDirs = list(fm.context);
  const outside = checkDirs(contextDirs);
  if (outside) return fail(outside);
  const type = fm.type ?? 'task';
  const constraints = list(fm.constraints);
  const expectedOutput = list(fm.expected_output);
  return {
    ok: true,
    instruction: {
      name,
      file,
      type,
      priority: fm.priority ?? 0,
      constraints,
      expectedOutput,
      contextDirs,
      id: fm.id ?? null,
      goal: goalOf(body, type, constraints, expectedOutput),
      digest: createHash('sha256').update(raw).digest('hex'),
    },
  };
}

/** Priority (higher first), then name: the order the queue runs them in. */
export function byPriorityThenName(a: Instruction, b: Instruction): number {
  return b.priority - a.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
