// A run parked at a usage limit (core/usage-limit.ts): a countdown to the wake-up time, when the round runs again by
// itself; the choices (retry now, stop) come from the decisions table.
import type { Awaiting } from '../../core/types.js';
import { describeRemaining, remainingMs } from '../../core/usage-limit.js';
import { tuiChoices } from '../decision-keys.js';
import { useNow } from '../StatusBar.js';
import { Text } from '../styled.js';
import { oneLine } from '../view-model.js';
import { ChoiceDialog } from './ChoiceDialog.js';

const pad = (n: number): string => String(n).padStart(2, '0');

/** "14:05" on the same day, "2026-11-27 14:05" on another one (the person's local time). */
export function clockTime(iso: string, now: number): string {
  const at = new Date(iso);
  const hm = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  return at.toDateString() === new Date(now).toDateString()
    ? hm
    : `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${hm}`;
}

export function UsageLimitDialog({
  awaiting: a,
  onChoose,
  now = Date.now,
  tickMs = 1000,
}: {
  awaiting: Extract<Awaiting, { kind: 'usage_limit' }>;
  onChoose: (choice: string) => void;
  now?: () => number;
  tickMs?: number;
}) {
  const t = useNow(now, tickMs);
  const left = describeRemaining(remainingMs(a.until, new Date(t)));
  return (
    <ChoiceDialog
      title={`usage limit: waiting until ${clockTime(a.until, t)} (${left})`}
      options={tuiChoices(a)}
      onChoose={onChoose}
      color="yellow"
    >
      <Text wrap="wrap">
        The {a.role} hit a usage limit: {oneLine(a.message, 300)}
      </Text>
      <Text dimColor wrap="wrap">
        The {a.action.kind} round runs again by itself then (the reset plus a margin). Ctrl+C saves and quits; the wait
        goes on when you start agent-collab again.
      </Text>
    </ChoiceDialog>
  );
}
