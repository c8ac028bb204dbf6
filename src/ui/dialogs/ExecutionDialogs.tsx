// The dialogs of step execution: a held command, a step that still fails, a forbidden change, a possible secret, a
// failed commit, and a workflow file changed outside while an agent wrote it. Their choices and keys come from the
// decisions table (core/decisions.ts).
import { describeLarge } from '../../core/commit-holds.js';
import { conflictRegions } from '../../core/conflict-markers.js';
import type { Awaiting, PendingCommand } from '../../core/types.js';
import { tuiChoices } from '../decision-keys.js';
import { Box, Text } from '../styled.js';
import { ChoiceDialog } from './ChoiceDialog.js';

const TAIL_LINES = 10;
const MAX_FINDINGS = 8;
const MAX_CONFLICT_LINES = 14;

type OnChoose = (choice: string) => void;

/** The last lines of a long text, with a note of how many were left out. */
export function tailOf(text: string, lines = TAIL_LINES): string {
  const all = text.replace(/\s+$/, '').split(/\r?\n/);
  if (all.length <= lines) return all.join('\n');
  return [`… (${all.length - lines} earlier line(s))`, ...all.slice(-lines)].join('\n');
}

export function CommandDialog({ pending, onChoose }: { pending: PendingCommand; onChoose: OnChoose }) {
  const blocked = pending.decision === 'block';
  const who = pending.role === 'agent-collab' ? 'agent-collab' : `The ${pending.role}`;
  return (
    <ChoiceDialog
      key={pending.id}
      title={blocked ? `${who} wants to run a command the policy blocks` : `${who} wants to run a command`}
      options={tuiChoices(pending)}
      onChoose={onChoose}
      color={blocked ? 'red' : 'yellow'}
    >
      <Box borderStyle="single" paddingX={1}>
        {/* The whole command, wrapped: what is approved is exactly what is shown. */}
        <Text wrap="wrap">{pending.command}</Text>
      </Box>
      <Text wrap="wrap">
        rule <Text bold>{pending.rule}</Text>: {pending.reason}
      </Text>
    </ChoiceDialog>
  );
}

type Waiting<K extends Awaiting['kind']> = Extract<Awaiting, { kind: K }>;

export function StepFailedDialog({ awaiting: a, onChoose }: { awaiting: Waiting<'step_failed'>; onChoose: OnChoose }) {
  const title = a.rolledBack
    ? `Step ${a.step} was rolled back. What next?`
    : `Step ${a.step} still fails after attempt ${a.attempt} (${a.category.replace(/_/g, ' ')})`;
  return (
    <ChoiceDialog
      key={`${a.step}:${a.attempt}:${a.rolledBack}`}
      title={title}
      options={tuiChoices(a)}
      onChoose={onChoose}
      color="red"
    >
      <Text dimColor>category: {a.category}</Text>
      <Text wrap="wrap">{tailOf(a.message) || '(no output)'}</Text>
    </ChoiceDialog>
  );
}

export function ForbiddenChangeDialog({
  awaiting: a,
  onChoose,
}: {
  awaiting: Waiting<'forbidden_change'>;
  onChoose: OnChoose;
}) {
  const shown = a.changes.slice(0, MAX_FINDINGS);
  return (
    <ChoiceDialog
      key={`${a.step}:${a.attempt}`}
      title={`Step ${a.step}: the agent changed what it must not; nothing was committed`}
      options={tuiChoices(a)}
      onChoose={onChoose}
      color="red"
    >
      {shown.map((c) => (
        <Text key={c} wrap="wrap">
          • {c}
        </Text>
      ))}
      {a.changes.length > shown.length ? <Text dimColor>… and {a.changes.length - shown.length} more</Text> : null}
      {a.undone.length > 0 ? (
        <Text dimColor wrap="wrap">
          undone: {a.undone.join('; ')}
        </Text>
      ) : null}
    </ChoiceDialog>
  );
}

export function SecretDialog({ awaiting: a, onChoose }: { awaiting: Waiting<'secret_found'>; onChoose: OnChoose }) {
  const shown = a.findings.slice(0, MAX_FINDINGS);
  return (
    <ChoiceDialog
      title={`Step ${a.step}: the changes may contain a secret; nothing was committed`}
      options={tuiChoices(a)}
      onChoose={onChoose}
      color="red"
    >
      {shown.map((f) => (
        <Text key={`${f.file}:${f.line}:${f.kind}`} wrap="wrap">
          • {f.file}:{f.line} — {f.kind}
        </Text>
      ))}
      {a.findings.length > shown.length ? <Text dimColor>… and {a.findings.length - shown.length} more</Text> : null}
    </ChoiceDialog>
  );
}

export function CommitFailedDialog({
  awaiting: a,
  onChoose,
}: {
  awaiting: Waiting<'commit_failed'>;
  onChoose: OnChoose;
}) {
  return (
    <ChoiceDialog title={`The commit of step ${a.step} failed`} options={tuiChoices(a)} onChoose={onChoose} color="red">
      <Text dimColor wrap="truncate">
        [Step {a.step}] {a.summary}
      </Text>
      <Text wrap="wrap">{tailOf(a.message, 6)}</Text>
    </ChoiceDialog>
  );
}

export function MergeConflictsDialog({
  awaiting: a,
  fileText,
  onChoose,
  onEdit,
}: {
  awaiting: Waiting<'merge_conflicts'>;
  /** The file as it is now (re-read when it changes on disk): what is still in conflict is shown from it. */
  fileText?: string | null;
  onChoose: OnChoose;
  onEdit: (file: 'plan' | 'comments') => void;
}) {
  const file = a.file === 'plan' ? 'plan.md' : 'comments.md';
  return (
    <ChoiceDialog
      title={`${file}: your edit and the ${a.role}’s version conflict (${a.conflicts})`}
      options={tuiChoices(a)}
      // `edit` opens the file; the dialog stays until the person picks how to go on.
      onChoose={(choice) => (choice === 'edit' ? onEdit(a.file) : onChoose(choice))}
    >
      <ConflictsNow file={file} text={fileText ?? null} />
      <Text dimColor>No agent sees the file until the conflicts are resolved.</Text>
    </ChoiceDialog>
  );
}

/** What is still in conflict in the file now: the person sees it without leaving the dialog (the Plan tab too). */
function ConflictsNow({ file, text }: { file: string; text: string | null }) {
  if (text === null)
    return (
      <Text>
        The conflicts are marked with {'<<<<<<<'} and {'>>>>>>>'} in {file}.
      </Text>
    );
  const regions = conflictRegions(text);
  if (regions.length === 0)
    return <Text color="green">{file} has no conflict markers left: Enter goes on with it.</Text>;
  const lines = regions.flatMap((r, i) => (i === 0 ? r : ['', ...r]));
  const shown = lines.slice(0, MAX_CONFLICT_LINES);
  return (
    <Box flexDirection="column">
      <Text>
        Still in conflict in {file} ({regions.length} block(s)); resolve them in the file or keep one side:
      </Text>
      <Box flexDirection="column" borderStyle="single" paddingX={1}>
        {shown.map((l, i) => (
          <Text key={i} wrap="truncate">
            {l || ' '}
          </Text>
        ))}
        {lines.length > shown.length ? (
          <Text dimColor>… {lines.length - shown.length} more line(s): e opens the file</Text>
        ) : null}
      </Box>
    </Box>
  );
}

export function ExternalChangeDialog({
  awaiting: a,
  onChoose,
}: {
  awaiting: Waiting<'external_change'>;
  onChoose: OnChoose;
}) {
  const file = a.file === 'plan' ? 'plan.md' : 'comments.md';
  return (
    <ChoiceDialog
      title={`${file} changed outside agent-collab while the ${a.role} wrote a new version`}
      options={tuiChoices(a)}
      onChoose={onChoose}
    >
      <Text>Your edit is on disk; the {a.role}’s version is in the Conversation tab.</Text>
    </ChoiceDialog>
  );
}

export function HunksOverlapDialog({
  awaiting: a,
  onChoose,
}: {
  awaiting: Waiting<'hunks_overlap'>;
  onChoose: OnChoose;
}) {
  const shown = a.files.slice(0, MAX_FINDINGS);
  return (
    <ChoiceDialog
      title={`Step ${a.step}: the agent changed lines you had changed too; nothing was committed`}
      options={tuiChoices(a)}
      onChoose={onChoose}
      color="yellow"
    >
      {shown.map((f) => (
        <Text key={f} wrap="wrap">
          • {f}
        </Text>
      ))}
      {a.files.length > shown.length ? <Text dimColor>… and {a.files.length - shown.length} more</Text> : null}
    </ChoiceDialog>
  );
}

export function LargeChangeDialog({
  awaiting: a,
  onChoose,
}: {
  awaiting: Waiting<'large_change'>;
  onChoose: OnChoose;
}) {
  const lines = describeLarge(a.large);
  const shown = lines.slice(0, MAX_FINDINGS);
  return (
    <ChoiceDialog
      title={`Step ${a.step} is over the size limits; nothing was committed`}
      options={tuiChoices(a)}
      onChoose={onChoose}
      color="yellow"
    >
      {shown.map((l) => (
        <Text key={l} wrap="wrap">
          • {l}
        </Text>
      ))}
      {lines.length > shown.length ? <Text dimColor>… and {lines.length - shown.length} more</Text> : null}
    </ChoiceDialog>
  );
}
