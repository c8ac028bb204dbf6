// Where the two hook clients are. Built: `dist/adapters/command-hook/hook-main.js` (tsc) and `command-hook.sh`
// (copied there by scripts/bundle.mjs), both separate files next to the esbuild bundle. From the TypeScript sources
// (tests, `tsx`): the files next to this module, hook-main.ts run by node with tsx's loader.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fromPackageRoot } from '../../package-root.js';

const fromSources = import.meta.url.endsWith('.ts');

function builtFile(name: string): string {
  return fromPackageRoot('dist', 'adapters', 'command-hook', name);
}

/** argv prefix that starts the node client; throws a one-line error when the built file is missing. */
export function nodeClientProgram(): string[] {
  if (fromSources) {
    const ts = fileURLToPath(new URL('./hook-main.ts', import.meta.url));
    const loader = createRequire(import.meta.url).resolve('tsx');
    return [process.execPath, '--import', pathToFileURL(loader).href, ts];
  }
  const js = builtFile('hook-main.js');
  if (existsSync(js)) return [process.execPath, js];
  throw new Error(`the command hook program is missing (looked for ${js}); reinstall agent-collab`);
}

/** The shipped bash client (the server reads it once and passes its text in the hook command line). */
export function bashClientSource(): string {
  return fromSources ? fileURLToPath(new URL('./command-hook.sh', import.meta.url)) : builtFile('command-hook.sh');
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** argv as one POSIX shell command line. */
export function shellLine(argv: readonly string[]): string {
  return argv.map((a) => (SAFE_WORD.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
