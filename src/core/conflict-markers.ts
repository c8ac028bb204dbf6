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

/** The lines of each conflict still in `text`, from its opening marker to its closing one (or the end). */
export function conflictRegions(text: string): string[][] {
  const regions: string[][] = [];
  let open: string[] | null = null;
  for (const line of text.split(/\r?\n/)) {
    const l = line.trimEnd();
    if (l === OPEN) regions.push((open = [line]));
    else if (open) {
      open.push(line);
      if (l === CLOSE) open = null;
    } else if (l === CLOSE) regions.push([line]); // a closing marker whose opening one was removed
  }
  return regions;
}
