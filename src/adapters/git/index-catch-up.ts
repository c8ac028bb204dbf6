// Brings the person's index up to a commit agent-collab made when the index was left behind it: after a crash
// between the commit and the index update, or when a commit hook changed what was committed (a formatter that
// stages its work). Otherwise the commit would show as a staged reversal, and a later `git commit` would undo it.
import { firstLine, runGit } from './git.js';
import { indexInfo, parseRawEntries, type Entry, type EntryChange } from './agent-hunks.js';

/**
 * `diffTreeArgs` names the change (`['--root', commit]`: a commit against its parent; `[treeA, treeB]`). Each index
 * entry still at the change's "from" version takes its "to" version; an entry the person changed otherwise is left.
 */
export async function catchUpIndex(repoRoot: string, diffTreeArgs: string[]): Promise<void> {
  const diff = await must(repoRoot, ['diff-tree', '-r', '-z', '--no-renames', '--no-commit-id', ...diffTreeArgs]);
  const changed = new Map(parseRawEntries(diff).map((c) => [c.path, { was: c.from, now: c.to }]));
  if (changed.size === 0) return;
  // The whole index (ls-files takes no pathspec list on stdin); a rare path, so its cost does not matter.
  const staged = new Map<string, string>();
  for (const line of (await must(repoRoot, ['ls-files', '-s', '-z'])).split('\0').filter(Boolean)) {
    const tab = line.indexOf('\t');
    const [mode = '', oid = ''] = line.slice(0, tab).split(' ');
    staged.set(line.slice(tab + 1), `${mode} ${oid}`);
  }
  const key = (e: Entry): string | undefined => (e ? `${e.mode} ${e.oid}` : undefined);
  const behind: EntryChange[] = [...changed]
    .filter(([file, c]) => staged.get(file) === key(c.was))
    .map(([file, c]) => ({ path: file, entry: c.now }));
  if (behind.length > 0) await must(repoRoot, ['update-index', '-z', '--index-info'], indexInfo(behind));
}

async function must(repoRoot: string, args: string[], input?: string): Promise<string> {
  const r = await runGit(repoRoot, args, input === undefined ? {} : { input });
  if (r.exitCode !== 0)
    throw new Error(`could not bring the index up to the step commit (git ${args[0]}): ${firstLine(r.stderr)}`);
  return r.stdout;
}
