import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DebugLog } from '../../../src/persistence/debug-log.js';
import { parseSize } from '../../../src/persistence/size.js';
import { tempDir } from './tmp-dir.js';

const KB = parseSize('1KB') ?? 0;

describe('DebugLog', () => {
  it('appends `<ISO> [source] line` in order; flush waits for all of it', async () => {
    const f = path.join(await tempDir(), 'sub', 'debug.log');
    const log = new DebugLog(f, KB * 100);
    for (let i = 0; i < 200; i++) log.write(i % 2 ? 'planner' : 'engine', `line ${i}`);
    log.write('reviewer', 'multi\nline\n');
    await log.flush();
    const lines = (await readFile(f, 'utf8')).split('\n').filter(Boolean);
    expect(lines).toHaveLength(202);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z \[engine\] line 0$/);
    expect(lines[199]).toMatch(/ \[planner\] line 199$/);
    expect(lines.slice(200).map((l) => l.replace(/^\S+ /, ''))).toEqual(['[reviewer] multi', '[reviewer] line']);
  });

  it('a single line far over the cap keeps its head and tail, and the files stay within the cap', async () => {
    const dir = await tempDir();
    const f = path.join(dir, 'debug.log');
    const cap = 1024 * KB;
    const log = new DebugLog(f, cap, 2);
    log.write('planner/codex', `HEAD-OF-LINE${'é'.repeat(5 * cap)}TAIL-OF-LINE`);
    log.write('planner/codex', 'the next line');
    await log.flush();
    const names = await readdir(dir);
    let all = '';
    for (const name of names) {
      const text = await readFile(path.join(dir, name), 'utf8');
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(cap);
      all += text;
    }
    expect(all).toMatch(
      /\[planner\/codex\] HEAD-OF-LINEé+ … \[agent-collab: \d+ characters of this line not logged\] … é+TAIL-OF-LINE\n/,
    );
    expect(all).toContain('[planner/codex] the next line');
  });

  it('rotates debug.log → .1 → .2 → .3 and drops the oldest, never passing maxBytes', async () => {
    const dir = await tempDir();
    const f = path.join(dir, 'debug.log');
    const log = new DebugLog(f, KB, 3);
    const line = 'x'.repeat(100); // ~130 bytes per line with prefix
    for (let i = 0; i < 60; i++) {
      log.write('t', `${i} ${line}`);
      if (i % 7 === 0) await log.flush();
    }
    await log.flush();
    expect((await readdir(dir)).sort()).toEqual(['debug.log', 'debug.log.1', 'debug.log.2', 'debug.log.3']);
    const files = [`${f}.3`, `${f}.2`, `${f}.1`, f];
    const texts = await Promise.all(files.map((p) => readFile(p, 'utf8')));
    for (const t of texts) expect(Buffer.byteLength(t)).toBeLessThanOrEqual(KB);
    const numbers = texts
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => Number(l.split(' ')[2]));
    expect(numbers).toEqual(numbers.map((_, i) => 59 - numbers.length + 1 + i)); // contiguous, newest last
    expect(numbers.at(-1)).toBe(59);
  });

  it('counts an existing file when deciding to rotate', async () => {
    const dir = await tempDir();
    const f = path.join(dir, 'debug.log');
    await writeFile(f, 'y'.repeat(KB - 10));
    const log = new DebugLog(f, KB);
    log.write('t', 'this line does not fit');
    await log.flush();
    expect(await readFile(`${f}.1`, 'utf8')).toBe('y'.repeat(KB - 10));
    expect(await readFile(f, 'utf8')).toMatch(/\[t\] this line does not fit\n$/);
  });

  it('flushSync writes what is still buffered', async () => {
    const f = path.join(await tempDir(), 'debug.log');
    const log = new DebugLog(f, KB);
    log.write('t', 'sync one');
    log.write('t', 'sync two');
    log.flushSync();
    expect(await readFile(f, 'utf8')).toMatch(/\[t\] sync one\n.*\[t\] sync two\n$/);
    await log.flush(); // nothing left: no duplicates
    expect((await readFile(f, 'utf8')).split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('makes its directory again when it was removed while the log was open (no line lost)', async () => {
    const dir = path.join(await tempDir(), 'work');
    const f = path.join(dir, 'debug.log');
    const log = new DebugLog(f, KB * 100);
    log.write('t', 'before');
    await log.flush();
    await rm(dir, { recursive: true });
    log.write('t', 'after');
    await log.flush();
    expect(log.lastError).toBeNull();
    expect(await readFile(f, 'utf8')).toMatch(/^\S+ \[t\] after\n$/);
  });

  it('never throws when the disk fails; keeps the error', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'blocker'), '');
    const log = new DebugLog(path.join(dir, 'blocker', 'debug.log'), KB);
    log.write('t', 'lost');
    await log.flush();
    log.flushSync();
    expect(log.lastError).toBeInstanceOf(Error);
  });
});
