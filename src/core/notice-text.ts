// One-line texts for notices and awaited decisions, shared by the headless printer and the TUI.
import type { Notice } from './events.js';

type TextNotice = Exclude<Notice, { kind: 'verdict' } | { kind: 'round' }>;

export function noticeText(n: TextNotice): string {
  switch (n.kind) {
    case 'info':
    case 'budget':
      return n.message;
    case 'code_verdict': {
      const of = n.step === null ? "the run's changes" : `step ${n.step}`;
      return `Code review of ${of}, round ${n.round}: ${n.verdict}`;
    }
    case 'command': {
      const who = n.role === 'agent-collab' ? 'agent-collab' : `the ${n.role}`;
      const rule = n.rule ? ` (rule "${n.rule}")` : '';
      return n.decision === 'allow'
        ? `Allowed ${who}'s command: ${n.command}${rule}`
        : `Denied ${who}'s command: ${n.command}${rule}: ${n.reason}`;
    }
    case 'tests': {
      const secs = (n.durationMs / 1000).toFixed(1);
      return `Step ${n.step} attempt ${n.attempt}: \`${n.command}\` ${n.passed ? 'passed' : 'FAILED'} in ${secs} s`;
    }
  }
}
