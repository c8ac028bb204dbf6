// How to start the hook program: node on the built `dist/adapters/command-hook/hook-main.js` (a separate tiny file,
// shipped next to the esbuild bundle), or — when running from the TypeScript sources (tests, `tsx`) — node with tsx's
// loader on hook-main.ts.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fromPackageRoot } from '../../package-root.js';

export function hookProgramArgv(): string[] {
  if (import.meta.url.endsWith('.ts')) {
    const ts = fileURLToPath(new URL('./hook-main.ts', import.meta.url));
    const loader = createRequire(import.meta.url).resolve('tsx');
    return [process.execPath, '--import', pathToFileURL(loader).href, ts];
  }
  const js = fromPackageRoot('dist', 'adapters', 'command-hook', 'hook-main.js');
  if (existsSync(js)) return [process.execPath, js];
  throw new Error(`the command hook program is missing (looked for ${js}); reinstall agent-collab`);
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** argv as one POSIX shell command line. */
export function shellLine(argv: readonly string[]): string {
  return argv.map((a) => (SAFE_WORD.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
