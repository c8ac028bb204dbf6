// The disagreement brief (issue 19): the review loop is stuck before its cap; each live ledger entry shows the
// reviewer's point and the planner's answer side by side, above the decisions table's `disagreement` choices.
import { DECISIONS } from '../../core/decisions.js';
import type { Awaiting } from '../../core/types.js';
import { Box, Text } from '../styled.js';
import { ArbitrationDialog } from './ArbitrationDialog.js';

/** Entries shown in the dialog; the rest are in the Comments tab and ledger.md. */
const SHOWN = 6;
/** Characters of each side shown (the whole texts are in ledger.md). */
const SIDE_MAX = 240;

function cut(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length <= SIDE_MAX ? one : `${one.slice(0, SIDE_MAX - 1)}…`;
}

export function DisagreementDialog({
  awaiting: a,
  onChoose,
}: {
  awaiting: Extract<Awaiting, { kind: 'disagreement' }>;
  onChoose: (choice: string, rounds?: number) => void;
}) {
  const what = a.review === 'plan' ? 'plan review' : a.step === null ? 'code review' : `code review of step ${a.step}`;
  const more = a.disputes.length - SHOWN;
  return (
    <ArbitrationDialog
      iteration={a.round}
      onChoose={onChoose}
      options={DECISIONS.disagreement.choices}
      title={`The ${what} is stuck after round ${a.round}: ${a.reason}. Whose side?`}
    >
      <Box flexDirection="column" marginBottom={1}>
        {a.disputes.slice(0, SHOWN).map((d) => (
          <Box key={d.id} flexDirection="row">
            <Box width={6}>
              <Text bold color={d.disputed ? 'red' : 'yellow'}>
                {d.id}
              </Text>
            </Box>
            <Box width="47%" paddingRight={1}>
              <Text>reviewer: {cut(d.reviewer)}</Text>
            </Box>
            <Box width="47%">
              <Text dimColor={d.planner === null}>
                planner{d.disputed ? ' (disputes)' : ''}: {d.planner === null ? '(no answer)' : cut(d.planner)}
              </Text>
            </Box>
          </Box>
        ))}
        {more > 0 ? <Text dimColor>… {more} more in the Comments tab and .agent-collab/ledger.md</Text> : null}
      </Box>
    </ArbitrationDialog>
  );
}
