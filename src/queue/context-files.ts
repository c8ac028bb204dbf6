// Reads the layers of an instruction's context: the project's `.agent-collab/context.md` (optional) and
// `<dir>/context.md` of each directory the instruction names (named, so it must be there).
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { ContextLayer } from '../core/layered-context.js';

export const CONTEXT_FILE = 'context.md';

export type ContextRead = { ok: true; layers: ContextLayer[] } | { ok: false; reason: string };

/** More than a prompt ever takes of one file (core/layered-context.ts cuts each to 16,000 characters). */
const MAX_READ_BYTES = 1024 * 1024;

/**
 * The start of a regular file: a named pipe or a device is refused (opened without blocking, never read), and a
 * huge file is read only as far as a prompt can use. An errno code or 'not-regular' when it cannot be read.
 */
async function readStart(file: string): Promise<string | { code: string }> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    return { code: (err as NodeJS.ErrnoException).code ?? 'unreadable' };
  }
  try {
    if (!(await handle.stat()).isFile()) return { code: 'not-regular' };
    const buf = Buffer.alloc(MAX_READ_BYTES);
    const { bytesRead } = await handle.read(buf, 0, MAX_READ_BYTES, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } catch (err) {
    return { code: (err as NodeJS.ErrnoException).code ?? 'unreadable' };
  } finally {
    await handle.close();
  }
}

function unreadable(source: string, code: string): string {
  return code === 'not-regular'
    ? `context file ${source} is not a regular file; replace it with one`
    : `context file ${source} cannot be read (${code})`;
}

function inside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

export async function readContextLayers(repoRoot: string, dirs: readonly string[]): Promise<ContextRead> {
  const layers: ContextLayer[] = [];
  const root = await realpath(repoRoot);
  const projectSource = `.agent-collab/${CONTEXT_FILE}`;
  // Optional, but like the directories' files never read through a link that leads out of the repo (a cloned repo
  // could commit one pointing at the person's files, which would then go into every prompt).
  const projectReal = await realpath(path.join(root, projectSource)).catch(() => null);
  if (projectReal !== null && !inside(projectReal, root))
    return {
      ok: false,
      reason: `context file ${projectSource} leads outside the repository; replace the link with a regular file`,
    };
  const project = projectReal === null ? null : await readStart(projectReal);
  if (project !== null && typeof project !== 'string' && project.code === 'not-regular')
    return { ok: false, reason: unreadable(projectSource, project.code) };
  if (typeof project === 'string') layers.push({ source: projectSource, text: project });
  for (const dir of dirs) {
    const source = path.posix.join(dir.replace(/\\/g, '/'), CONTEXT_FILE);
    // Through links too: a context.md that leads out of the repo is refused, not read.
    const real = await realpath(path.join(root, source)).catch(() => null);
    if (real === null)
      return { ok: false, reason: `context file ${source} does not exist; create it or drop "${dir}"` };
    if (!inside(real, root)) return { ok: false, reason: `context file ${source} leads outside the repository` };
    const text = await readStart(real);
    if (typeof text !== 'string') return { ok: false, reason: unreadable(source, text.code) };
    layers.push({ source, text });
  }
  return { ok: true, layers };
}
