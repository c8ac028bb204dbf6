// A step commit from a clean tree: every kind of change (edit, deletion, new files with a space, a newline or a late
// NUL byte, a binary file) is committed, the patch it reports (scanned for secrets, kept as patch.diff) is exactly
// what the commit holds, and git's auto-maintenance does not run inside an unattended step.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRaw } from '../../../src/adapters/git/step-workspace.js';
import { fixture, type Fixture } from './git-fixture.js';

let fx: Fixture | undefined;
const restore: Array<() => void> = [];
afterEach(() => {
  for (const r of restore.splice(0)) r();
  fx?.cleanup();
  fx = undefined;
});

// A text file with a NUL byte after git's 8000-byte look for binary content: its patch line holds the NUL as it is.
const LATE_NUL = `${'x'.repeat(9000)}\0tail\n`;

describe('step commit from a clean tree', () => {
  it('commits every change and reports exactly the patch it committed, without git auto-maintenance', async () => {
    fx = fixture();
    fx.write('lib.txt', 'v1\n');
    fx.write('gone.txt', 'bye\n');
    fx.git('add', '-A');
    fx.git('commit', '-q', '-m', 'seed');
    const base = await fx.ws.snapshot();
    fx.write('lib.txt', 'v2\n');
    fx.remove('gone.txt');
    fx.write('new file.txt', 'new\n');
    fx.write('line\nbreak.txt', 'odd name\n');
    fx.write('late-nul.txt', LATE_NUL);
    fx.write('img.bin', Buffer.from([0, 1, 2, 255]));

    // git's own trace names every process it starts, `git maintenance run --auto` after a commit among them.
    const trace = path.join(fx.dir, '..', `git-trace-${process.pid}.txt`);
    process.env.GIT_TRACE = trace;
    restore.push(() => {
      delete process.env.GIT_TRACE;
      rmSync(trace, { force: true });
    });
    const r = await fx.ws.commitStep({
      runId: 'run-1',
      step: 1,
      summary: 'Change things',
      baseTree: base,
      allowSecrets: false,
    });
    expect(r.kind).toBe('committed');
    expect(readFileSync(trace, 'utf8')).toMatch(/built-in: git commit/);
    expect(readFileSync(trace, 'utf8')).not.toMatch(/maintenance/);

    if (r.kind !== 'committed') return;
    expect(r.hash).toBe(fx.git('rev-parse', 'HEAD').trim());
    expect(r.files?.sort()).toEqual([
      'gone.txt',
      'img.bin',
      'late-nul.txt',
      'lib.txt',
      'line\nbreak.txt',
      'new file.txt',
    ]);
    expect(r.patch).toBe(
      fx.git(
        'diff',
        '--binary',
        '--no-ext-diff',
        '--no-textconv',
        '--no-color',
        '--src-prefix=a/',
        '--dst-prefix=b/',
        'HEAD~1',
        'HEAD',
      ),
    );
    expect(r.patch).toContain('\0tail');
    expect(fx.status()).toEqual([]);
  });
});

describe('reading git’s raw list of changes', () => {
  it('splits the NUL-separated entries, and says so when the list is cut short', () => {
    const out = ':000000 100644 0000000 f70f10e A\0a.txt\0:100644 000000 1111111 0000000 D\0:odd\0';
    expect(parseRaw(out)).toEqual([
      { path: 'a.txt', status: 'A', newMode: '100644' },
      { path: ':odd', status: 'D', newMode: '000000' },
    ]);
    expect(parseRaw('')).toEqual([]);
    expect(() => parseRaw(':100644 100644 1111111 2222222 M\0x')).toThrow(/cut short/);
  });
});
