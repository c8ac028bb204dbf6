// The TUI's first frame comes before the session and what only it needs: in the built CLI, the modules loaded up to
// the first frame (cli.js → interactive-start → Ink and the TUI, with everything they import statically) hold none
// of the session, the engine, execa or zod. One static import of them would load ~1 MB of chunks first (measured:
// ~170 ms of CPU before the tab bar shows on a busy 2-core machine).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';

const DIST = path.dirname(CLI);
const CHUNKS = path.join(DIST, 'chunks');

const text = (file: string): string => readFileSync(file, 'utf8');
/** The chunk (in dist/chunks) whose name starts with `name-`. */
function chunk(name: string): string {
  const file = readdirSync(CHUNKS).find((f) => f.startsWith(`${name}-`) && f.endsWith('.js'));
  if (!file) throw new Error(`no ${name} chunk in ${CHUNKS}`);
  return path.join(CHUNKS, file);
}

/** `file` and every file it imports statically (`import … from "./x.js"`, `import "./x.js"`), transitively. */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const m of text(file).matchAll(/^(?:import|export)\s[^;]*?["'](\.\.?\/[^"']+\.js)["'];?$/gms))
    staticClosure(path.resolve(path.dirname(file), m[1]!), seen);
  return seen;
}

describe('the built TUI before its first frame', () => {
  it('loads Ink and the TUI, but not the session, the engine, execa or zod', () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
    const entry = text(CLI);
    expect(entry).toMatch(/import\("\.\/chunks\/interactive-start-[A-Z0-9]+\.js"\)/);
    const start = chunk('interactive-start');
    expect(text(start)).toMatch(/import\("\.\/tui-[A-Z0-9]+\.js"\)/);
    const loaded = [...staticClosure(CLI), ...staticClosure(start), ...staticClosure(chunk('tui'))];
    const source = loaded.map(text).join('\n');
    expect(source).toContain('OpeningScreen'); // the first frame itself is there
    for (const later of ['function openSession', 'var Engine = class', 'node_modules/execa/', 'node_modules/zod/'])
      expect(source, `${later} loads before the first frame`).not.toContain(later);
    // …and they are in the bundle, loaded once the frame is drawn.
    const after = [...staticClosure(chunk('interactive'))].map(text).join('\n');
    for (const later of ['function openSession', 'var Engine = class', 'node_modules/execa/', 'node_modules/zod/'])
      expect(after, `${later} is in the session's chunks`).toContain(later);
  });
});
