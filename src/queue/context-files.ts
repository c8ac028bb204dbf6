// Reads the layers of an instruction's context: the project's `.agent-collab/context.md` (optional) and
// `<dir>/context.md` of each directory the instruction names (named, so it must be there).
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { ContextLayer } from '../core/layered-context.js';

export const CONTEXT_FILE = 'context.md';

export type ContextRead = { ok: true; layers: ContextLayer[] } | { ok: false; reason: string };

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
  const project = projectReal === null ? null : await readFile(projectReal, 'utf8').catch(() => null);
  if (project !== null) layers.push({ source: projectSource, text: project });
  for (const dir of dirs) {
    const source = path.posix.join(dir.replace(/\\/g, '/'), CONTEXT_FILE);
    // Through links too: a context.md that leads out of the repo is refused, not read.
    const real = await realpath(path.join(root, source)).catch(() => null);
    if (real === null)
      return { ok: false, reason: `context file ${source} does not exist; create it or drop "${dir}"` };
    if (!inside(real, root)) return { ok: false, reason: `context file ${source} leads outside the repository` };
    const text = await readFile(real, 'utf8').catch((err: NodeJS.ErrnoException) => err);
    if (typeof text !== 'string')
      return { ok: false, reason: `context file ${source} cannot be read (${text.code ?? 'unreadable'})` };
    layers.push({ source, text });
  }
  return { ok: true, layers };
}
