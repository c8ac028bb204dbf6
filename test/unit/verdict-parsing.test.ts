import { describe, expect, it } from 'vitest';
import { parseVerdict } from '../../src/core/verdict.js';

const approved = { kind: 'approved' };
const changes = { kind: 'changes_required', marker: true };
const noMarker = { kind: 'changes_required', marker: false };
const unclear = expect.objectContaining({ kind: 'unparseable', reason: expect.any(String) as unknown });

const cases: [string, string, unknown][] = [
  ['exact approval', '[APPROVED]\n\n## Comments\n1. Looks good.', approved],
  ['exact changes', '[CHANGES_REQUIRED]\n\n## Comments\n1. Fix step 2.', changes],
  ['approval with surrounding whitespace', '\n\n   [APPROVED]   \n## Comments', approved],
  ['approval only', '[APPROVED]', approved],
  ['CRLF line endings', '[APPROVED]\r\n\r\n## Comments\r\n1. ok', approved],
  ['bold approval', '**[APPROVED]**\n\nfine', approved],
  ['underscore emphasis', '__[CHANGES_REQUIRED]__\n1. x', changes],
  ['code span', '`[APPROVED]`\nok', approved],
  ['heading', '# [APPROVED]\nok', approved],
  ['heading with bold', '## **[CHANGES_REQUIRED]**\nx', changes],
  ['frontmatter first', '---\nstatus: CHANGES_REQUIRED\niteration: 2\n---\n\n[APPROVED]\n\n## Comments', approved],
  ['frontmatter says approved but body changes', '---\nstatus: APPROVED\n---\n[CHANGES_REQUIRED]\n1. x', changes],
  ['whole answer fenced', '```markdown\n[APPROVED]\n\n## Comments\n1. ok\n```', approved],
  ['fenced with tildes', '~~~\n[CHANGES_REQUIRED]\n1. x\n~~~', changes],
  ['fence around frontmatter', '```\n---\na: 1\n---\n[APPROVED]\n```', approved],
  ['changes marker then explanation', '[CHANGES_REQUIRED] see the comments below\n1. x', changes],
  ['changes marker with colon', '[CHANGES_REQUIRED]: two issues', changes],
  ['empty', '', unclear],
  ['whitespace only', '  \n\t\n ', unclear],
  ['empty fence', '```\n```', unclear],
  ['frontmatter only', '---\nstatus: APPROVED\n---\n', unclear],
  ['bare APPROVED', 'APPROVED\n\nLooks good', unclear],
  ['bare Approved.', 'Approved.', unclear],
  ['singular in brackets', '[APPROVE]\nok', unclear],
  ['wrong case', '[Approved]\nok', unclear],
  ['lower case', '[approved]', unclear],
  ['both markers', '[APPROVED] [CHANGES_REQUIRED]', unclear],
  ['both markers reversed', '[CHANGES_REQUIRED] [APPROVED]', unclear],
  ['changes then approval words', '[CHANGES_REQUIRED] but approve if step 2 is fixed', unclear],
  ['unclosed bracket', '[APPROVED\nok', unclear],
  ['unopened bracket', 'APPROVED]\nok', unclear],
  ['approval with trailing text', '[APPROVED] looks good to me', unclear],
  ['label', 'Verdict: APPROVED', unclear],
  ['label bold', '**Verdict:** [APPROVED]', unclear],
  ['status label', 'Status: changes required', unclear],
  ['spaced marker', '[ APPROVED ]', unclear],
  ['changes without underscore', 'CHANGES REQUIRED', unclear],
  ['single-star emphasis', '*[APPROVED]*', unclear],
  ['blockquote', '> [APPROVED]', unclear],
  ['LGTM', 'LGTM!', unclear],
  ['later approval, no marker first', 'Here is my review.\n\n[APPROVED]\n\n## Comments', unclear],
  ['later bold approval', 'Review done:\n**[APPROVED]**', unclear],
  ['plain review text', 'The plan misses a test step.\n\n1. Add tests.', noMarker],
  ['word approval in prose', 'Approval is not possible yet: step 2 is wrong.', noMarker],
  ['approve in prose', 'I would approve this once step 2 names the file.', noMarker],
  ['later changes marker only', 'Some notes first.\n[CHANGES_REQUIRED]\n1. x', noMarker],
  // Two different verdicts in the first lines: unclear, so the reviewer is asked again (issue 18, item 10).
  ['approval then changes marker on line 2', '[APPROVED]\n[CHANGES_REQUIRED]\n1. x', unclear],
  ['approval then changes marker after a blank line', '[APPROVED]\n\n**[CHANGES_REQUIRED]**\n1. x', unclear],
  ['approval then a changes heading', '[APPROVED]\n## CHANGES_REQUIRED\n1. x', unclear],
  ['approval then a changes label', '[APPROVED]\nVerdict: [CHANGES_REQUIRED]', unclear],
  ['approval then changes in other case', '[APPROVED]\n[Changes Required]', unclear],
  ['approval then changes mentioned in prose', '[APPROVED]\n1. No [CHANGES_REQUIRED] this time.', unclear],
  ['approval then REJECTED', '[APPROVED]\nRejected: step 2 is wrong', unclear],
  ['approval, changes marker line far below', `[APPROVED]\n${'1. ok\n'.repeat(20)}[CHANGES_REQUIRED]`, unclear],
  ['changes then approval marker on line 2', '[CHANGES_REQUIRED]\n[APPROVED]', unclear],
  ['changes then approval mentioned later', '[CHANGES_REQUIRED]\n1. After this I will say [APPROVED].', unclear],
  ['changes with text then LGTM', '[CHANGES_REQUIRED]: one issue\nLGTM otherwise', unclear],
  ['approval repeated', '[APPROVED]\n[APPROVED]\nok', approved],
  ['approval, the word changes in prose', '[APPROVED]\n1. The changes required by step 2 are small.', approved],
  [
    'changes, the word approve far below in prose',
    `[CHANGES_REQUIRED]\n${'1. x\n'.repeat(8)}I would approve after that.`,
    changes,
  ],
];

describe('parseVerdict', () => {
  it.each(cases)('%s', (_name, text, expected) => {
    expect(parseVerdict(text)).toEqual(expected);
  });

  it('never approves anything whose first line is not exactly [APPROVED]', () => {
    for (const [, text, expected] of cases) {
      if (expected !== approved) expect(parseVerdict(text).kind).not.toBe('approved');
    }
  });

  it('explains why an answer is unparseable', () => {
    const r = parseVerdict('Verdict: APPROVED');
    expect(r.kind === 'unparseable' && r.reason).toContain('Verdict: APPROVED');
  });
});
