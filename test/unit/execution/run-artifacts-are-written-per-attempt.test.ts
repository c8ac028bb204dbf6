import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunArtifacts } from '../../../src/persistence/artifacts.js';

let runs: string;
let debugLines: string[];
const debug = (source: string, line: string): void => void debugLines.push(`[${source}] ${line}`);

beforeEach(() => {
  runs = path.join(mkdtempSync(path.join(os.tmpdir(), 'ac-artifacts-')), 'runs');
  debugLines = [];
});
afterEach(() => rmSync(path.dirname(runs), { recursive: true, force: true }));

describe('run artifacts', () => {
  it('keeps each attempt in runs/<run-id>/step-<N>/attempt-<k>/', async () => {
    const art = new RunArtifacts(runs, 'run-1', debug);
    const dir = await art.attemptDir(2, 1);
    expect(dir).toBe(path.join(runs, 'run-1', 'step-2', 'attempt-1'));
    expect(existsSync(dir)).toBe(true);
    await art.write(2, 3, 'prompt.md', '# the prompt\n');
    await art.write(2, 3, 'prompt.md', '# the prompt, rewritten\n');
    expect(readFileSync(path.join(runs, 'run-1', 'step-2', 'attempt-3', 'prompt.md'), 'utf8')).toBe(
      '# the prompt, rewritten\n',
    );
    expect(readdirSync(path.join(runs, 'run-1', 'step-2', 'attempt-3'))).toEqual(['prompt.md']); // no temp files left
  });

  it('flush() waits for files written without waiting (the engine does not wait for artifacts) and the timeline', async () => {
    const art = new RunArtifacts(runs, 'run-1', debug);
    const big = 'x'.repeat(4 * 1024 * 1024);
    void art.write(1, 1, 'patch.diff', big);
    void art.write(1, 1, 'verdict.json', '{}\n');
    void art.timeline('step 1 committed');
    await art.flush();
    expect(readFileSync(path.join(runs, 'run-1', 'step-1', 'attempt-1', 'patch.diff'), 'utf8')).toBe(big);
    expect(readFileSync(path.join(runs, 'run-1', 'step-1', 'attempt-1', 'verdict.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(path.join(runs, 'run-1', 'timeline.md'), 'utf8')).toContain('step 1 committed');
  });

  it('appends events as JSON lines, in order, once flushed', async () => {
    const art = new RunArtifacts(runs, 'run-1', debug);
    for (let i = 0; i < 50; i++) art.appendEvent(1, 1, { type: 'text', i });
    art.appendEvent(1, 2, { type: 'other attempt' });
    await art.flush();
    art.appendEvent(1, 1, { type: 'after flush' });
    await art.flush();
    const lines = readFileSync(path.join(runs, 'run-1', 'step-1', 'attempt-1', 'events.jsonl'), 'utf8')
      .trimEnd()
      .split('\n');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      ...Array.from({ length: 50 }, (_, i) => ({ type: 'text', i })),
      { type: 'after flush' },
    ]);
    expect(readFileSync(path.join(runs, 'run-1', 'step-1', 'attempt-2', 'events.jsonl'), 'utf8')).toBe(
      '{"type":"other attempt"}\n',
    );
  });

  it('never throws from appendEvent: an unencodable event or a failing disk goes to the debug log', async () => {
    const art = new RunArtifacts(runs, 'run-1', debug);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => art.appendEvent(1, 1, circular)).not.toThrow();
    // A file where the run directory should be: every write below fails.
    mkdirSync(runs, { recursive: true });
    writeFileSync(path.join(runs, 'run-2'), 'not a directory');
    const broken = new RunArtifacts(runs, 'run-2', debug);
    expect(() => broken.appendEvent(1, 1, { type: 'x' })).not.toThrow();
    await broken.flush();
    await broken.write(1, 1, 'patch.diff', 'diff');
    await broken.timeline('step 1 started');
    expect(broken.lastError).not.toBeNull();
    expect(debugLines.some((l) => l.startsWith('[artifacts] encoding an event'))).toBe(true);
    expect(debugLines.filter((l) => l.includes('run-2')).length).toBe(3);
  });

  it('keep() (the only copy of a patch) rejects when the disk fails, unlike write(); once resolved the file is there', async () => {
    mkdirSync(runs, { recursive: true });
    writeFileSync(path.join(runs, 'run-2'), 'not a directory');
    const broken = new RunArtifacts(runs, 'run-2', debug);
    await expect(broken.keep(1, 1, 'rolled-back.patch.diff', 'diff')).rejects.toThrow();
    await expect(broken.write(1, 1, 'rolled-back.patch.diff', 'diff')).resolves.toBeUndefined();
    const art = new RunArtifacts(runs, 'run-1', debug);
    await art.keep(1, 1, 'rolled-back.patch.diff', 'diff --git a/x b/x\n');
    expect(readFileSync(path.join(runs, 'run-1', 'step-1', 'attempt-1', 'rolled-back.patch.diff'), 'utf8')).toBe(
      'diff --git a/x b/x\n',
    );
  });

  it('writes the timeline with a header once and one timestamped line per entry', async () => {
    const art = new RunArtifacts(runs, 'run-7', debug);
    await Promise.all([art.timeline('step 1 started'), art.timeline('tests failed:\nexit 1')]);
    await art.timeline('step 1 committed abc123');
    const text = readFileSync(path.join(runs, 'run-7', 'timeline.md'), 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual(['# Run run-7', '']);
    expect(lines.slice(2).map((l) => l.replace(/^- \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /, '- <t> '))).toEqual([
      '- <t> step 1 started',
      '- <t> tests failed: exit 1',
      '- <t> step 1 committed abc123',
    ]);
  });

  it('refuses names that would leave the attempt directory', async () => {
    const art = new RunArtifacts(runs, 'run-1', debug);
    await expect(art.write(1, 1, '../escape.txt', 'x')).rejects.toThrow('invalid artifact file name');
    expect(() => new RunArtifacts(runs, '../up', debug)).toThrow('invalid artifact run id');
  });
});
