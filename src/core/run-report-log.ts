// What the run report reads from log.md (persistence/log-file.ts writes it: `## <ISO time> — <title>` then `- line`
// bullets): the person's decisions, the denied commands, each step's last test result and the code review verdicts.
// Pure parsing of agent-collab's own log titles (core/*.ts write them); an entry it does not know is left out.

export interface LogEntry {
  at: string;
  title: string;
  lines: string[];
}

export interface LogFacts {
  /** The person's decisions, oldest first. */
  decisions: { at: string; text: string }[];
  /** Commands denied (by the policy, the person or a timeout), oldest first. */
  denied: { at: string; command: string; reason: string }[];
  /** Each step's last test result, in a few words. */
  tests: Map<number, string>;
  /** The code review's verdicts, oldest first ("Code review of the run's changes, round 1: approved"). */
  codeVerdicts: string[];
  /** The person accepted code the reviewer still asked changes to. */
  codeAcceptedByPerson: boolean;
}

const HEADING = /^## (\S+) — (.*)$/;

/** log.md's entries, oldest first. A bullet's continuation lines (indented two spaces) stay with it. */
export function parseLog(text: string): LogEntry[] {
  const entries: LogEntry[] = [];
  let current: LogEntry | null = null;
  for (const raw of text.split('\n')) {
    const heading = HEADING.exec(raw);
    if (heading) {
      current = { at: heading[1] ?? '', title: (heading[2] ?? '').trim(), lines: [] };
      entries.push(current);
    } else if (current && raw.startsWith('- ')) current.lines.push(raw.slice(2));
    else if (current && raw.startsWith('  ') && current.lines.length > 0)
      current.lines[current.lines.length - 1] += `\n${raw.slice(2)}`;
  }
  return entries;
}

/** Titles of what the person decided (core/decide.ts, execution.ts, code-review-loop.ts, command-hold.ts …). */
function isDecision(title: string): boolean {
  // "Person allowed …", "… skipped by the person", "Stopped at …"; not "… needs the person" (a question).
  return /^Person\b/.test(title) || /\bby the person\b/.test(title) || /^(Stopped|Run cancelled)\b/.test(title);
}

const STEP_DONE = /^Step (\d+) done: /;
const TESTS_FAILED = /^Step (\d+) attempt (\d+): tests failed$/;
const UNTESTED = /^Step (\d+): no test command; committing untested$/;
const CODE_VERDICT = /^Code review of .+, round \d+: (approved|changes required)$/;

export function logFacts(entries: readonly LogEntry[]): LogFacts {
  const facts: LogFacts = {
    decisions: [],
    denied: [],
    tests: new Map(),
    codeVerdicts: [],
    codeAcceptedByPerson: false,
  };
  for (const e of entries) {
    if (isDecision(e.title)) {
      const detail = e.lines[0] ? `: ${e.lines[0].split('\n')[0]}` : '';
      facts.decisions.push({ at: e.at, text: `${e.title}${detail}` });
    }
    // The person accepted the code at the cap, or sided with the planner against the reviewer's last comments.
    if (/^Person (?:accepted .* as it is \(code review|sided with the planner on .*; code accepted$)/.test(e.title))
      facts.codeAcceptedByPerson = true;
    if (e.title === 'Command denied') {
      facts.denied.push({ at: e.at, command: e.lines[0] ?? '', reason: e.lines[1] ?? '' });
      // core/command-hold.ts: a held command the person denied (the policy's and the timeout's say otherwise).
      if (e.lines[1]?.startsWith('the person denied it'))
        facts.decisions.push({ at: e.at, text: `Person denied a command: ${e.lines[0] ?? ''}` });
    }
    if (CODE_VERDICT.test(e.title)) facts.codeVerdicts.push(e.title);
    const done = STEP_DONE.exec(e.title);
    if (done) {
      const tests = e.lines.find((l) => l.startsWith('tests: '));
      if (tests) facts.tests.set(Number(done[1]), tests.slice('tests: '.length));
      continue;
    }
    const failed = TESTS_FAILED.exec(e.title);
    if (failed) {
      facts.tests.set(Number(failed[1]), `failed (attempt ${failed[2]})${e.lines[0] ? `: ${e.lines[0]}` : ''}`);
      continue;
    }
    const untested = UNTESTED.exec(e.title);
    if (untested) facts.tests.set(Number(untested[1]), 'none (no test command)');
  }
  return facts;
}

/** plan.md's title: its first `# ` heading, or null. */
export function planTitle(planBody: string | null): string | null {
  const line = planBody?.split('\n').find((l) => /^# \S/.test(l));
  return line ? line.slice(2).trim() : null;
}
