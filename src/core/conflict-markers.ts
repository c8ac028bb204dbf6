// The conflict markers of agent-collab's own three-way merge of an outside edit (persistence/external-edits.ts
// labels the sides). Text that still has them is never put into an agent's prompt: the person resolves them first.

export const MERGE_LABELS = { yours: 'your edit', base: 'before', agents: "agent's version" } as const;

const OPEN = `<<<<<<< ${MERGE_LABELS.yours}`;
const CLOSE = `>>>>>>> ${MERGE_LABELS.agents}`;

/** True when `text` has a line that opens or closes one of agent-collab's merge conflicts. */
export function hasMergeConflictMarkers(text: string): boolean {
  return text.split(/\r?\n/).some((line) => {
    const l = line.trimEnd();
    return l === OPEN || l === CLOSE;
  });
}
