import { describe, expect, it } from 'vitest';
import { detectQuestion } from '../../../src/core/question-detect.js';
import type { TurnKind } from '../../../src/core/types.js';

const QUESTIONS: Array<[TurnKind, string]> = [
  [
    'write_plan',
    'I looked at the repo. There are two databases configured.\n\nWhich one should the new table go into, Postgres or SQLite?',
  ],
  ['write_plan', 'Before I write the plan: should I keep the old CLI flags for compatibility?'],
  [
    'execute_step',
    'The tests need a running Redis.\n\nDo you want me to add a docker-compose file, or mock Redis instead',
  ],
  ['execute_step', 'Step 2 would delete the migrations folder. Please confirm that this is intended.'],
  ['respond', '评审意见要求删除旧接口。\n\n请问是否需要保留兼容层？'],
  ['review', 'I cannot review this yet. Would you like me to focus on security or on performance?'],
];

const ANSWERS: Array<[TurnKind, string]> = [
  [
    'write_plan',
    '# Task: Cache\n\n## Goal\nWhy is it slow? Because of N+1 queries.\n\n## Steps\n1. [ ] Add a cache?\n2. [ ] Measure: is it faster?\n',
  ],
  [
    'respond',
    '# Task: x\n\n## Steps\n1. [ ] Do it\n\n## Responses to review\n1. Should we keep the flag? Yes, kept it.\n',
  ],
  [
    'review',
    '[CHANGES_REQUIRED]\n\n## Comments\n1. What happens when the file is missing?\n2. Should the retry be bounded?',
  ],
  ['review', '[APPROVED]\n\nAny reason not to ship it? None.'],
  ['review', 'APPROVED?'],
  ['execute_step', 'Added the parser. Does it handle tabs? Yes, tested.\nSummary: add the parser'],
  ['refine', 'Goal restated.\n\nOpen questions:\n1. Which database should it use?'],
  ['write_plan', 'The plan is below.\n\nIt touches `src/a.ts` and `src/b.ts`.'],
  ['execute_step', ''],
];

describe('question detection (heuristic, when the CLI gives no structured signal)', () => {
  it.each(QUESTIONS)('%s: a turn that ends by asking is a question', (kind, text) => {
    const q = detectQuestion(kind, text);
    expect(q).not.toBeNull();
    expect(text).toContain(q!);
  });

  it.each(ANSWERS)('%s: an answer with question marks inside is not a question', (kind, text) => {
    expect(detectQuestion(kind, text)).toBeNull();
  });
});
