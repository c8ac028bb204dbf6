// The watchdog and the next start end every process carrying agent-collab's owner tag. The person's editor (and an
// editor server it starts, e.g. `emacsclient -a ''`) is the person's: it must not carry the tag, or it would be
// killed, unsaved buffers and all, when agent-collab exits.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { OWNER_ENV, ownerTag } from '../../../src/adapters/owned-processes.js';
import { openEditor } from '../../../src/modes/interactive.js';

const saved = { EDITOR: process.env.EDITOR, VISUAL: process.env.VISUAL };
let dir = '';
afterEach(() => {
  process.env.EDITOR = saved.EDITOR;
  if (saved.VISUAL === undefined) delete process.env.VISUAL;
  else process.env.VISUAL = saved.VISUAL;
  rmSync(dir, { recursive: true, force: true });
});

it('the editor opened from the TUI runs without the owner tag, while agent-collab’s own children carry it', () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ac-editor-'));
  const editor = path.join(dir, 'editor.sh');
  writeFileSync(editor, `#!/bin/sh\nenv > "${dir}/editor-env"\n`);
  chmodSync(editor, 0o755);
  delete process.env.VISUAL;
  process.env.EDITOR = editor;
  const tag = ownerTag();
  expect(process.env[OWNER_ENV]).toBe(tag);

  openEditor(path.join(dir, 'plan.md'), { stdin: process.stdin });

  const env = readFileSync(path.join(dir, 'editor-env'), 'utf8');
  expect(env).toContain(`EDITOR=${editor}`);
  expect(env).not.toContain(tag);
});
