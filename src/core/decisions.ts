// Every question agent-collab puts to the person, with its choices, declared once. The TUI's dialogs and key
// hints, `--decide` and its `--help` text, the `needs_human` event and the headless hints are all derived from
// this table, and the person's answer reaches the core as one `decide` event.
import type { Awaiting, PendingCommand } from './types.js';

export interface Choice {
  /** What the `decide` event carries. */
  readonly id: string;
  /** Short, for a dialog option or a status-bar hint. */
  readonly label: string;
  /** One line, for `--help` and the `needs_human` event. */
  readonly description: string;
  /** TUI keys: a character (letters match either case), 'Enter' or 'Esc'. Empty: not offered in the TUI. */
  readonly keys: readonly string[];
  /** How it is given on the command line (`--decide retry`, `--answer "…"`); null: only in the TUI. */
  readonly flag: string | null;
  /** Hard to undo: the TUI asks this question before doing it. */
  readonly confirm?: string;
}

export interface Question {
  /** What happened, in a few words (the `--help` text groups the choices by it). */
  readonly about: string;
  readonly choices: readonly Choice[];
}

function choice<I extends string>(
  id: I,
  label: string,
  description: string,
  keys: readonly string[],
  flag: string | null = `--decide ${id}`,
) {
  return { id, label, description, keys, flag };
}

/** `--decide cancel` ends the run wherever it waits (the TUI offers it only at the iteration cap). */
export const CANCEL = choice(
  'cancel',
  'cancel the run',
  'cancel the run; it is archived to .agent-collab/history/',
  [],
);

/** On start, when the repo has an unfinished run: asked before any engine exists (headless: `--resume` / `--fresh`),
 * so it is not a `decide` event. A dismiss key (Esc) never archives: archiving has a key of its own. */
export const RESUME_PROMPT = {
  about: 'the repo has an unfinished run',
  choices: [
    choice('resume', 'resume it', 'go on with the unfinished run where it stopped', ['Enter', 'y'], '--resume'),
    choice(
      'archive',
      'archive it and start a new run',
      'move the unfinished run to .agent-collab/history/ and start a new one',
      ['a'],
      '--fresh',
    ),
    choice(
      'quit',
      'quit, change nothing',
      'leave agent-collab; the unfinished run stays as it is',
      ['Esc', 'n', 'q'],
      null,
    ),
  ],
} as const satisfies Question;

export type ResumeChoice = (typeof RESUME_PROMPT)['choices'][number]['id'];

/** The questions about a step share these: undo its changes, or stop executing the plan. */
const ROLLBACK_STEP = choice(
  'rollback',
  'roll back the step’s changes',
  'restore the files the step changed (its patch is kept)',
  ['b'],
);
const stopExecution = (left: 'plan kept' | 'changes left uncommitted') =>
  choice('stop', 'stop execution', `stop execution and go back to goal refinement (${left})`, ['s']);

export const DECISIONS = {
  arbitration: {
    about: 'the iteration cap was reached',
    choices: [
      {
        ...choice(
          'approve',
          'Force approve the plan',
          'approve the plan although the reviewer still asks for changes',
          ['1'],
        ),
        confirm: 'Approve the plan although the reviewer still asks for changes?',
      },
      {
        ...choice('continue', 'Continue for N more rounds', 'allow N more review rounds (plain `continue` is one)', [
          '2',
        ]),
        flag: '--decide continue:N',
      },
      choice('edit', 'Edit plan.md by hand, then send it to review', 'edit plan.md yourself, then decide `edited`', [
        '3',
      ]),
      {
        ...CANCEL,
        label: 'Cancel the run',
        keys: ['4'],
        confirm: 'Cancel the run? It is archived to .agent-collab/history/.',
      },
    ],
  },
  manual_edit: {
    about: 'you are editing plan.md by hand',
    choices: [choice('edited', 'done, send it to review', 'plan.md is edited: send it to the reviewer', ['Enter'])],
  },
  // Issue 19: the code review still asks for changes after `[review] max_code_rounds` rounds.
  code_review_cap: {
    about: 'the code review round cap was reached',
    choices: [
      choice('accept', 'Accept the code as it is', 'accept the code although the reviewer still asks for changes', [
        '1',
      ]),
      {
        ...choice(
          'continue',
          'Continue for N more rounds',
          'allow N more code review rounds (plain `continue` is one)',
          ['2'],
        ),
        flag: '--decide continue:N',
      },
      choice('edit', 'Edit the code by hand, then send it to review', 'edit the files yourself, then decide `edited`', [
        '3',
      ]),
      choice('stop', 'Stop', 'stop and go back to goal refinement (plan and commits kept)', ['4']),
    ],
  },
  // Issue 19 (item 3): the review loop stopped making progress before its cap (core/stagnation.ts); the person
  // reads the disagreement brief (each live ledger entry: the reviewer's point, the planner's answer) and rules.
  disagreement: {
    about:
      'the reviewer and the planner are stuck: a review round settled nothing, or a disputed point came back twice',
    choices: [
      choice(
        'reviewer',
        'Side with the reviewer',
        'the planner gets one more round, told to apply the listed entries (they are open again)',
        ['1'],
      ),
      {
        ...choice(
          'planner',
          'Side with the planner',
          'the listed entries are withdrawn; nothing is left open, so the plan is approved (code review: the code is accepted)',
          ['2'],
        ),
        confirm: 'Withdraw the reviewer’s points and approve as it is?',
      },
      choice(
        'edit',
        'Edit by hand, then send it to review',
        'edit plan.md (code review: the code) yourself, then decide `edited`',
        ['3'],
      ),
      {
        ...choice(
          'continue',
          'Continue for N more rounds',
          'allow N more review rounds without this check (plain `continue` is one)',
          ['4'],
        ),
        flag: '--decide continue:N',
      },
      choice('stop', 'Stop', 'stop and go back to goal refinement (plan and commits kept)', ['5']),
    ],
  },
  code_edit: {
    about: 'you are editing the code by hand',
    choices: [
      choice('edited', 'done, send it to review', 'the code is edited: send its diff to the reviewer', ['Enter']),
    ],
  },
  unclear_verdict: {
    about: 'the reviewer gave no readable verdict',
    choices: [
      choice('retry', 'ask the reviewer again', 'ask the reviewer again for a verdict', ['r']),
      choice('changes', 'treat it as CHANGES_REQUIRED', 'treat the answer as CHANGES_REQUIRED', ['c']),
      {
        ...choice('approved', 'treat it as APPROVED', 'treat the answer as APPROVED (you read it: it approves)', ['a']),
        confirm: 'Treat the reviewer’s unreadable answer as APPROVED?',
      },
    ],
  },
  failure: {
    about: 'an agent round or agent-collab failed',
    choices: [choice('retry', 'retry', 'run the failed round again (a plain --resume does too)', ['Enter'])],
  },
  // Issue 20: Esc while an agent works (as in Claude Code) stops its round but keeps the phase.
  interrupted: {
    about: 'you interrupted an agent’s round',
    choices: [
      choice('retry', 'run the round again', 'run the interrupted round again as it was', ['Enter']),
      choice(
        'message',
        'write a message, then run it again with it',
        'run the interrupted round again with your message added to its prompt',
        ['m'],
        '--answer "…"',
      ),
      {
        ...choice('stop', 'stop this phase', 'stop: back to goal refinement (plan and commits kept)', ['s']),
        confirm: 'Stop this phase and go back to goal refinement?',
      },
    ],
  },
  question: {
    about: 'an agent asks a question',
    choices: [
      choice(
        'answer',
        'send the answer',
        'answer the agent; it goes back into the same session',
        ['Enter'],
        '--answer "…"',
      ),
    ],
  },
  step_failed: {
    about: 'a step still fails after its retries',
    choices: [
      choice('retry', 'retry the step', 'give the step one more attempt', ['r']),
      choice('skip', 'skip the step', 'skip the step; its changes stay uncommitted', ['k']),
      ROLLBACK_STEP,
      stopExecution('plan kept'),
    ],
  },
  forbidden_change: {
    about: 'the agent changed what it must not (HEAD, a branch, a ref, the stash, a worktree or agent-collab’s files)',
    choices: [
      choice(
        'retry',
        'retry the step',
        'give the step another attempt (what it changed was undone; its edits are kept)',
        ['r'],
      ),
      choice('skip', 'skip the step', 'skip the step; its file edits stay uncommitted', ['k']),
      ROLLBACK_STEP,
      stopExecution('plan kept'),
    ],
  },
  secret_found: {
    about: 'a step’s changes may contain a secret',
    choices: [
      choice('retry', 'retry the commit (after you removed it)', 'scan and commit again after you removed the secret', [
        'r',
      ]),
      {
        ...choice('commit-anyway', 'commit anyway', 'commit although the scan found something', ['c']),
        confirm: 'Commit although it may contain a secret?',
      },
      choice(
        'leave',
        'leave the changes uncommitted, go on',
        'leave the changes uncommitted and go on with the next step',
        ['l'],
      ),
      stopExecution('changes left uncommitted'),
    ],
  },
  commit_failed: {
    about: 'a step’s commit failed',
    choices: [
      choice('retry', 'retry the commit', 'try the commit again (after fixing the hook or the git identity)', ['r']),
      choice('continue', 'continue without committing', 'go on with the next step; the changes stay uncommitted', [
        'c',
      ]),
      stopExecution('changes left uncommitted'),
    ],
  },
  hunks_overlap: {
    about: 'the agent changed lines you had changed too (staged or not)',
    choices: [
      {
        ...choice(
          'commit-both',
          'commit both: your edits and the agent’s in those files',
          'commit those files whole, your edits in them included (they are no longer staged or unstaged)',
          ['c'],
        ),
        confirm: 'Commit your own edits in those files along with the agent’s?',
      },
      choice(
        'leave',
        'leave the changes uncommitted, go on',
        'leave the step’s changes uncommitted and go on with the next step',
        ['l'],
      ),
      stopExecution('changes left uncommitted'),
    ],
  },
  large_change: {
    about: 'a step adds a file over [safety] max_file_size or more files than max_files_per_step',
    choices: [
      {
        ...choice('commit', 'commit it anyway', 'commit the step although it is over the limits', ['c']),
        confirm: 'Commit the big file(s) or the many files?',
      },
      choice(
        'leave',
        'leave the changes uncommitted, go on',
        'leave the step’s changes uncommitted and go on with the next step',
        ['l'],
      ),
      ROLLBACK_STEP,
    ],
  },
  external_change: {
    about: 'plan.md or comments.md changed outside while an agent wrote it',
    choices: [
      choice(
        'overwrite',
        'overwrite: use the agent’s version',
        'use the agent’s version; yours is saved in .agent-collab/backups/',
        ['o'],
      ),
      choice('merge', 'merge both versions', 'three-way merge of your edit and the agent’s version', ['m']),
      choice('discard', 'discard the agent’s version: keep yours', 'keep your version; the agent’s is dropped', ['d']),
    ],
  },
  // Issue 18 (item 12): a merge of an outside edit that left conflicts waits for the person.
  merge_conflicts: {
    about: 'merging your edit of plan.md or comments.md with the agent’s version left conflicts',
    choices: [
      choice(
        'edit',
        'edit the file to resolve them',
        'open the file in $EDITOR and resolve the <<<<<<< / >>>>>>> blocks',
        ['e'],
        null,
      ),
      choice(
        'resolved',
        'resolved: go on with the file as it is now',
        'the conflicts are resolved in the file: go on with it',
        ['Enter'],
      ),
      choice('keep-mine', 'keep your version', 'drop the agent’s version and go on with yours', ['y']),
      choice(
        'keep-agent',
        'keep the agent’s version',
        'go on with the agent’s version; yours is saved in .agent-collab/backups/',
        ['a'],
      ),
    ],
  },
  // Issue 19 (item 4): a budget of the run is spent; the run stopped at a safe point (core/budget-guard.ts).
  budget: {
    about: 'a budget of the run ([budget] max_tokens, max_cost_usd or max_minutes) is spent',
    choices: [
      choice(
        'raise',
        'raise the cap and go on',
        'raise that cap by its configured amount for this run and run the stopped round (or raise it in the config, then --resume)',
        ['r'],
      ),
      choice('stop', 'stop the run', 'stop: back to goal refinement (plan and commits kept)', ['s']),
    ],
  },
  // Issue 19 (item 6): a usage limit with a known reset parks the run ([limits] wait_for_reset, core/usage-limit.ts);
  // at the reset the round runs again by itself. Until then the person may run it now, or stop.
  usage_limit: {
    about: 'a usage limit was hit; the run waits for its reset ([limits] wait_for_reset)',
    choices: [
      choice('retry', 'retry now', 'run the round now instead of waiting for the reset', ['Enter']),
      choice('stop', 'stop', 'stop waiting: back to goal refinement (plan and commits kept)', ['s']),
    ],
  },
  // Held commands are decided only in the TUI: a run without it answers them with --allow-cmd and the policy.
  command: {
    about: 'an agent wants to run a command that needs confirmation',
    choices: [
      choice('allow-once', 'allow once', 'run the command this once', ['y'], null),
      choice(
        'allow-run',
        'allow this command for the rest of the run',
        'run it, and the same command again without asking',
        ['a'],
        null,
      ),
      choice('deny', 'deny', 'the agent is told no and goes on without it', ['n', 'Esc', 'Enter'], null),
    ],
  },
  blocked_command: {
    about: 'an agent wants to run a command the policy blocks',
    choices: [
      choice('deny', 'deny', 'the agent is told no and goes on without it', ['n', 'Esc', 'Enter'], null),
      {
        ...choice('allow-once', 'run it anyway', 'run the blocked command this once', ['!'], null),
        confirm: 'Run a command the policy blocks?',
      },
    ],
  },
} as const satisfies Record<string, Question>;

export type QuestionKind = keyof typeof DECISIONS;
export type ChoiceId<K extends QuestionKind> = (typeof DECISIONS)[K]['choices'][number]['id'];

/** The person's answer to a question; `question` is answered by the `answer` event (it carries text). */
export type DecideEvent =
  | { type: 'decide'; on: 'arbitration'; choice: ChoiceId<'arbitration'>; rounds?: number }
  | { type: 'decide'; on: 'manual_edit'; choice: ChoiceId<'manual_edit'> }
  | { type: 'decide'; on: 'code_review_cap'; choice: ChoiceId<'code_review_cap'>; rounds?: number }
  | { type: 'decide'; on: 'disagreement'; choice: ChoiceId<'disagreement'>; rounds?: number }
  | { type: 'decide'; on: 'code_edit'; choice: ChoiceId<'code_edit'> }
  | { type: 'decide'; on: 'unclear_verdict'; choice: ChoiceId<'unclear_verdict'> }
  | { type: 'decide'; on: 'failure'; choice: ChoiceId<'failure'> }
  | { type: 'decide'; on: 'interrupted'; choice: ChoiceId<'interrupted'> }
  | { type: 'decide'; on: 'step_failed'; choice: ChoiceId<'step_failed'> }
  | { type: 'decide'; on: 'forbidden_change'; choice: ChoiceId<'forbidden_change'> }
  | { type: 'decide'; on: 'secret_found'; choice: ChoiceId<'secret_found'> }
  | { type: 'decide'; on: 'commit_failed'; choice: ChoiceId<'commit_failed'> }
  | { type: 'decide'; on: 'hunks_overlap'; choice: ChoiceId<'hunks_overlap'> }
  | { type: 'decide'; on: 'large_change'; choice: ChoiceId<'large_change'> }
  | { type: 'decide'; on: 'external_change'; choice: ChoiceId<'external_change'> }
  | { type: 'decide'; on: 'merge_conflicts'; choice: ChoiceId<'merge_conflicts'> }
  | { type: 'decide'; on: 'budget'; choice: ChoiceId<'budget'> }
  | { type: 'decide'; on: 'usage_limit'; choice: ChoiceId<'usage_limit'> }
  /** `id`: the held command's, so a late answer cannot reach a newer command. */
  | { type: 'decide'; on: 'command'; id: string; choice: ChoiceId<'command'> };

/** The question a waiting state asks, or null when it is not one (the goal, a go). */
export function questionOf(w: Awaiting): Exclude<QuestionKind, 'command' | 'blocked_command'> | null {
  return w.kind in DECISIONS ? (w.kind as Exclude<QuestionKind, 'command' | 'blocked_command'>) : null;
}

/** The question a held command asks. */
export function commandQuestion(p: Pick<PendingCommand, 'decision'>): 'command' | 'blocked_command' {
  return p.decision === 'block' ? 'blocked_command' : 'command';
}

/** The choices that apply to this waiting state now (a rolled-back step cannot be rolled back again). */
export function choicesFor(w: Awaiting): readonly Choice[] {
  const q = questionOf(w);
  if (!q) return [];
  const all: readonly Choice[] = DECISIONS[q].choices;
  return w.kind === 'step_failed' && w.rolledBack ? all.filter((c) => c.id !== 'rollback') : all;
}

const DECIDE = '--decide ';

/** What follows `--decide` for a choice ("continue:N"), or null when it is not given with --decide. */
export function decideSpelling(c: Choice): string | null {
  return c.flag?.startsWith(DECIDE) ? c.flag.slice(DECIDE.length) : null;
}

/** The `--decide` word of a choice ("continue:N" → "continue"), or null. */
export function decideWord(c: Choice): string | null {
  return decideSpelling(c)?.replace(/:N$/, '') ?? null;
}

/** Every `--decide` spelling, in table order, without repeats ("approve", "continue:N", …, "cancel"). */
export function decideSpellings(): string[] {
  const all = (Object.values(DECISIONS) as Question[]).flatMap((q) => [...q.choices, CANCEL].map(decideSpelling));
  return [...new Set(all.filter((s): s is string => s !== null))];
}

/** "--decide retry | skip | stop" for the choices of a waiting state (`--answer "…"` for a question). */
export function flagsFor(w: Awaiting): string {
  const choices = choicesFor(w);
  const words = choices.map(decideSpelling).filter((s): s is string => s !== null);
  const other = choices.filter((c) => c.flag && decideSpelling(c) === null).map((c) => c.flag as string);
  return [...other, ...(words.length ? [`${DECIDE}${words.join(' | ')}`] : [])].join(', ');
}
