// What a step commit holds and what the person's index becomes: HEAD plus the agent's hunks, the index plus the
// agent's hunks. The agent's hunks are the diff from the step's base (the working tree before the step, the person's
// edits included) to the working tree now; the person's edits are the diff from the base to HEAD (or the index).
// A file both changed is merged line by line (core/hunk-merge.ts); where their lines meet it is an overlap.
import { applyAgentHunks, parseZeroContextHunks, splitLines } from '../../core/hunk-merge.js';
import { firstLine, runGit, type GitCallOptions } from './git.js';

/** A path's entry in a tree or index; null: the path is absent. */
export type Entry = { mode: string; oid: string } | null;

/** A path whose entry changes: for `git update-index -z --index-info`. */
export interface EntryChange {
  path: string;
  entry: Entry;
}

export interface AgentCommitPlan {
  /** What changes against HEAD in the commit. */
  commit: EntryChange[];
  /** What changes in the person's index once the commit is made. */
  index: EntryChange[];
  /** Files where the agent's hunks meet the person's (left out of `commit` and `index`). */
  overlaps: string[];
}

interface RawEntryChange {
  path: string;
  from: Entry;
  to: Entry;
  status: string;
}

const DIFF_FLAGS = ['--no-ext-diff', '--no-textconv', '--no-color', '--no-renames'];
const ZERO_SHA = /^0+$/;
const REGULAR = new Set(['100644', '100755']);
/** What git itself looks at to call a file binary. */
const BINARY_PROBE = 8000;

function entryOf(mode: string, oid: string): Entry {
  return mode === '000000' || ZERO_SHA.test(oid) ? null : { mode, oid };
}

function same(a: Entry, b: Entry): boolean {
  return a === null || b === null ? a === b : a.mode === b.mode && a.oid === b.oid;
}

/** `git diff --raw -z` with both sides' modes and object ids. */
export function parseRawEntries(out: string): RawEntryChange[] {
  const changes: RawEntryChange[] = [];
  let pos = 0;
  while (out.startsWith(':', pos)) {
    const metaEnd = out.indexOf('\0', pos);
    const pathEnd = metaEnd < 0 ? -1 : out.indexOf('\0', metaEnd + 1);
    if (pathEnd < 0) throw new Error('could not read git’s list of changed files (cut short)');
    const [oldMode = '', newMode = '', oldOid = '', newOid = '', status = ''] = out.slice(pos + 1, metaEnd).split(' ');
    changes.push({
      path: out.slice(metaEnd + 1, pathEnd),
      from: entryOf(oldMode, oldOid),
      to: entryOf(newMode, newOid),
      status: status.charAt(0),
    });
    pos = pathEnd + 1;
  }
  return changes;
}

export function indexInfo(changes: readonly EntryChange[]): string {
  return changes
    .map((c) => `${c.entry ? `${c.entry.mode} ${c.entry.oid}` : `0 ${'0'.repeat(40)}`}\t${c.path}\0`)
    .join('');
}

export class AgentHunks {
  constructor(
    private readonly repoRoot: string,
    /** Pathspecs that leave agent-collab's work dir out. */
    private readonly pathspec: readonly string[],
  ) {}

  /**
   * `base`/`now`: snapshots of the working tree; `head`: HEAD's tree (the empty tree without commits).
   * `personsIndex`: merge onto the person's index too (false: the index takes the committed entries).
   * `commitBoth`: files that overlap are committed whole, as they are now (the person said so).
   */
  async plan(
    base: string,
    now: string,
    head: string,
    opts: { personsIndex: boolean; commitBoth: boolean },
  ): Promise<AgentCommitPlan> {
    const [agent, toHead, toIndex] = await Promise.all([
      this.rawDiff([base, now]),
      this.rawDiff([base, head]),
      opts.personsIndex ? this.rawDiff(['--cached', base]) : Promise.resolve([]),
    ]);
    const headSide = new Map(toHead.map((c) => [c.path, c.to]));
    const indexSide = new Map(toIndex.map((c) => [c.path, c.status === 'U' ? ('unmerged' as const) : c.to]));
    const plan: AgentCommitPlan = { commit: [], index: [], overlaps: [] };
    for (const c of agent) {
      const inHead = headSide.has(c.path) ? (headSide.get(c.path) as Entry) : c.from;
      const inIndex = indexSide.has(c.path) ? (indexSide.get(c.path) as Entry | 'unmerged') : c.from;
      const committed = await this.mergeOnto(c.from, c.to, inHead);
      const staged = !opts.personsIndex
        ? committed
        : inIndex === 'unmerged'
          ? 'overlap'
          : same(inIndex, inHead)
            ? committed
            : await this.mergeOnto(c.from, c.to, inIndex);
      if (committed === 'overlap' || staged === 'overlap') {
        if (!opts.commitBoth) {
          plan.overlaps.push(c.path);
          continue;
        }
        if (!same(c.to, inHead)) plan.commit.push({ path: c.path, entry: c.to });
        plan.index.push({ path: c.path, entry: c.to });
        continue;
      }
      if (!same(committed, inHead)) plan.commit.push({ path: c.path, entry: committed });
      if (inIndex === 'unmerged' || !same(staged, inIndex)) plan.index.push({ path: c.path, entry: staged });
    }
    return plan;
  }

  /** `target` with the agent's change base → now put onto it; 'overlap' when it meets what target changed. */
  private async mergeOnto(base: Entry, now: Entry, target: Entry): Promise<Entry | 'overlap'> {
    if (same(base, target)) return now; // nothing of the person's in this file
    if (same(now, target)) return target; // the agent made it what the target has already
    if (!base || !now || !target || ![base.mode, now.mode, target.mode].every((m) => REGULAR.has(m))) return 'overlap'; // a file created, deleted, a link or a submodule on both sides: no lines to tell apart
    const [baseText, nowText, targetText] = await Promise.all([
      this.blob(base.oid),
      this.blob(now.oid),
      this.blob(target.oid),
    ]);
    if ([baseText, nowText, targetText].some((t) => t.slice(0, BINARY_PROBE).includes('\0'))) return 'overlap';
    const [agentHunks, personHunks] = await Promise.all([
      this.zeroContextHunks(base.oid, now.oid),
      this.zeroContextHunks(base.oid, target.oid),
    ]);
    const merged = applyAgentHunks(splitLines(nowText), splitLines(targetText), agentHunks, personHunks);
    if (merged.kind === 'overlap') return 'overlap';
    const oid = (
      await this.must(['hash-object', '-w', '--stdin'], { input: merged.text, encoding: 'latin1' }, 'store a file')
    ).trim();
    // The agent's change of the executable bit goes with its hunks; otherwise the target keeps its own.
    return { mode: base.mode !== now.mode ? now.mode : target.mode, oid };
  }

  private async zeroContextHunks(from: string, to: string) {
    const out = await this.must(
      ['diff', '-U0', '--inter-hunk-context=0', '--text', ...DIFF_FLAGS, from, to],
      {},
      'diff a file',
    );
    return parseZeroContextHunks(out);
  }

  private blob(oid: string): Promise<string> {
    return this.must(['cat-file', 'blob', oid], { encoding: 'latin1' }, 'read a file');
  }

  private async rawDiff(revs: string[]): Promise<RawEntryChange[]> {
    if (revs.length === 2 && revs[0] === revs[1]) return [];
    const out = await this.must(
      ['diff', '--raw', '-z', '--no-abbrev', ...DIFF_FLAGS, ...revs, '--', ...this.pathspec],
      {},
      'list changed files',
    );
    return parseRawEntries(out);
  }

  private async must(args: string[], opts: GitCallOptions, what: string): Promise<string> {
    const r = await runGit(this.repoRoot, args, opts);
    if (r.exitCode !== 0) throw new Error(`could not ${what} (git ${args[0]}): ${firstLine(r.stderr || r.stdout)}`);
    return r.stdout;
  }
}
