#!/usr/bin/env node
// `npm run build`: esbuild bundles agent-collab into dist/ — dist/cli.js (the CLI), dist/index.js (the library API,
// `import { run } from 'agent-collab'`; its types are `npm run build:types`) and dist/chunks/ for the modules
// they share or load later with import() (the TUI, the run modes). One bundle loads far faster than the ~300 files of src/ and
// node_modules one by one. Non-TypeScript files of src/ (the bash hook client) are copied next to their module.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { inkStyleRuns, reactProductionOnly } from './bundle-plugins.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['src/cli.ts', 'src/index.ts'],
  outbase: 'src',
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // CommonJS dependencies (proper-lockfile, …) use `require` for Node's built-ins and
  // `__filename`, which an ES module does not have: each output file defines them for itself.
  banner: {
    js: [
      "import { createRequire as __createRequire } from 'node:module';",
      "import { fileURLToPath as __fileURLToPath } from 'node:url';",
      "import { dirname as __pathDirname } from 'node:path';",
      'const require = __createRequire(import.meta.url);',
      'const __filename = __fileURLToPath(import.meta.url);',
      'const __dirname = __pathDirname(__filename);',
    ].join(' '),
  },
  // Ink's React DevTools module imports it (Ink loads that only with DEV=true, which src/ui/load-ui.ts hides); it
  // is not a dependency.
  external: ['react-devtools-core'],
  plugins: [reactProductionOnly, inkStyleRuns(root)],
  logLevel: 'warning',
}).catch(() => process.exit(1)); // esbuild has printed the errors

for (const entry of readdirSync(src, { withFileTypes: true, recursive: true })) {
  if (!entry.isFile() || /\.tsx?$/.test(entry.name)) continue;
  const from = path.join(entry.parentPath, entry.name);
  const to = path.join(dist, path.relative(src, from));
  mkdirSync(path.dirname(to), { recursive: true });
  copyFileSync(from, to);
}
