import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendLog } from '../../../src/persistence/log-file.js';
import { tempDir } from './tmp-dir.js';

describe('appendLog', () => {
  it('creates log.md with a header and appends sections in order', async () => {
    const f = path.join(await tempDir(), '.agent-collab', 'log.md');
    await appendLog(f, { title: 'Plan approved', at: new Date('2026-02-05T10:30:00Z') });
    await appendLog(f, {
      title: 'Step 1\ndone',
      lines: ['commit abc', 'tests: 3 passed\nsecond line'],
      at: new Date('2026-02-05T10:31:00Z'),
    });
    expect(await readFile(f, 'utf8')).toBe(
      '# agent-collab log\n' +
        '\n## 2026-02-05T10:30:00.000Z — Plan approved\n' +
        '\n## 2026-02-05T10:31:00.000Z — Step 1 done\n\n- commit abc\n- tests: 3 passed\n  second line\n',
    );
  });

  it('appends to an existing log without a second header', async () => {
    const f = path.join(await tempDir(), 'log.md');
    await Promise.all([1, 2, 3].map((i) => appendLog(f, { title: `t${i}` })));
    const text = await readFile(f, 'utf8');
    expect(text.match(/# agent-collab log/g)).toHaveLength(1);
    expect(text.match(/^## /gm)).toHaveLength(3);
  });
});
