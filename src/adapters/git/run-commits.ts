// The run report's git facts (issue 19, item 7): the run's `[Step N]` commits (found as the code review finds them:
// on HEAD's first-parent line, by their run trailer) and the files they changed, with lines added and removed.
// A person's own commits in between are not the run's work and are not counted.
import type { ChangedFile, ReportCommit } from '../../core/run-report.js';
import { firstLine, runGit, RUN_TRAILER } from './git.js';

/** How far back from HEAD the run's step commits are looked for (as the code review's diff does). */
const RUN_COMMIT_SEARCH_DEPTH = 200;
const DIFF_FLAGS = ['--no-ext-diff', '--no-textconv', '--no-color', '--no-renames'];

/** The run's commits, oldest first; none when the repo has no commit yet. */
export async function runCommits(repoRoot: string, runId: string): Promise<ReportCommit[]> {
  const r = await runGit(repoRoot, [
    'log',
    '--first-parent',
    '--no-show-signature',
    '--no-color',
    '--format=%H%x1f%s%x1f%b%x1e',
    '-n',
    String(RUN_COMMIT_SEARCH_DEPTH),
  ]);
  if (r.exitCode !== 0) return []; // no commits at all
  const trailer = `${RUN_TRAILER}: ${runId}`;
  return r.stdout
    .split('\x1e')
    .map((rec) => rec.trim().split('\x1f'))
    .filter(([hash = '', subject = '', body = '']) => {
      const ofRun = subject.startsWith('[Step ') && body.split('\n').some((l) => l.trim() === trailer);
      return hash !== '' && ofRun;
    })
    .map(([hash = '', subject = '']) => ({ hash, subject }))
    .reverse();
}

type Change = ChangedFile['change'];

/** A file's change over two commits in a row: added then deleted is no change at all (null). */
function combine(first: Change, then: Change): Change | null {
  if (first === 'added') return then === 'deleted' ? null : 'added';
  if (first === 'deleted') return then === 'added' ? 'modified' : then;
  return then === 'added' ? 'modified' : then;
}

function changeOf(letter: string): Change {
  return letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified';
}

async function must(repoRoot: string, args: string[], what: string): Promise<string> {
  const r = await runGit(repoRoot, args);
  if (r.exitCode !== 0) throw new Error(`could not ${what} (git ${args[0]}): ${firstLine(r.stderr || r.stdout)}`);
  return r.stdout;
}

/**
 * What `commits` changed, outside agent-collab's work dir (`pathspec`), one row per file: how (over all the
 * commits) and the lines added and removed (summed; null for a binary file), sorted by path.
 */
export async function filesChangedBy(
  repoRoot: string,
  commits: readonly ReportCommit[],
  pathspec: readonly string[],
): Promise<ChangedFile[]> {
  const files = new Map<string, ChangedFile | null>();
  for (const { hash } of commits) {
    // One git process per commit: `--raw` (":<modes> <oids> <status>", then the path) and `--numstat`
    // ("<added>\t<removed>\t<path>", "-" for a binary file), NUL-separated, raw records first.
    const out = await must(
      repoRoot,
      [
        'diff-tree',
        '-r',
        '--root',
        '--no-commit-id',
        '-z',
        ...DIFF_FLAGS,
        '--raw',
        '--numstat',
        hash,
        '--',
        ...pathspec,
      ],
      'list the changed files',
    );
    const status: string[] = [];
    const counts = new Map<string, { added: number | null; removed: number | null }>();
    const fields = out.split('\0');
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i] ?? '';
      if (field.startsWith(':')) {
        status.push(field.split(' ')[4]?.[0] ?? 'M', fields[++i] ?? '');
        continue;
      }
      if (field === '') continue;
      const [added = '-', removed = '-', ...rest] = field.split('\t');
      counts.set(rest.join('\t'), {
        added: added === '-' ? null : Number(added),
        removed: removed === '-' ? null : Number(removed),
      });
    }
    for (let i = 0; i + 1 < status.length; i += 2) {
      const letter = status[i] ?? 'M';
      const file = status[i + 1] ?? '';
      const before = files.get(file);
      const count = counts.get(file) ?? { added: null, removed: null };
      if (before === undefined) {
        files.set(file, { path: file, change: changeOf(letter), ...count });
        continue;
      }
      const change = before ? combine(before.change, changeOf(letter)) : changeOf(letter);
      const sum = (a: number | null | undefined, b: number | null): number | null =>
        a === undefined ? b : a === null || b === null ? null : a + b;
      files.set(
        file,
        change === null
          ? null
          : {
              path: file,
              change,
              added: sum(before?.added, count.added),
              removed: sum(before?.removed, count.removed),
            },
      );
    }
  }
  return [...files.values()]
    .filter((f): f is ChangedFile => f !== null)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
