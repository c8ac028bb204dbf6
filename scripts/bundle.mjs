#!/usr/bin/env node
// `npm run build`, second half: bundles src/cli.ts and its dependencies into dist/cli.js (+ dist/chunks/ for the
// lazily imported modes), replacing the per-file dist/cli.js that tsc wrote. Loading one bundle instead of ~330
// separate ES modules is what makes startup fast. The rest of tsc's per-file dist/ stays: the node command hook client
// (dist/adapters/command-hook/hook-main.js) must remain its own tiny file, and the .wasm/prompt files are found from
// the package root at run time (src/package-root.ts). The bash command hook client (command-hook.sh), which tsc does
// not copy, is copied next to it here.
//
// Files are written so that a process starting dist/cli.js during the build never sees half an output: new chunks
// first (their names carry a content hash), then cli.js by rename, then the chunks no longer referenced are removed.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist');
const chunksDir = path.join(outdir, 'chunks');
const entry = path.join(outdir, 'cli.js');

// CommonJS dependencies call `require` (react, signal-exit, …) and use `__filename` (write-file-atomic names its temp
// files with it) or `__dirname`; ESM output has none of these, so every output file defines them for itself.
const banner = [
  "import { createRequire as __agentCollabCreateRequire } from 'node:module';",
  "import { fileURLToPath as __agentCollabFileURLToPath } from 'node:url';",
  "import { dirname as __agentCollabDirname } from 'node:path';",
  'const require = __agentCollabCreateRequire(import.meta.url);',
  'const __filename = __agentCollabFileURLToPath(import.meta.url);',
  'const __dirname = __agentCollabDirname(__filename);',
].join('\n');

// Ink's DEV=true mode connects to React DevTools (react-devtools-core, not a dependency) and then reads Ink's own
// package.json next to its module, which in the bundle is a path inside dist/ that does not exist: the TUI would
// crash for anyone with DEV=true in their environment. In the bundle that mode is off (the build fails if Ink's
// file moved, rather than shipping the crash).
const inkDevOff = {
  name: 'ink-dev-off',
  setup(b) {
    let replaced = false;
    b.onLoad({ filter: /[\\/]node_modules[\\/]ink[\\/]build[\\/]utils\.js$/ }, () => {
      replaced = true;
      return { contents: 'export const isDev = () => false;', loader: 'js' };
    });
    b.onEnd((result) => {
      if (!replaced && result.errors.length === 0) {
        const text = "ink/build/utils.js (Ink's isDev) was not found: update the ink-dev-off plugin in scripts/bundle.mjs";
        process.stderr.write(`bundle: ${text}\n`);
        return { errors: [{ text }] };
      }
    });
  },
};

// js-yaml 3 (gray-matter's YAML parser) loads esprima (~280 KB, ~12 ms of every start) at import time, only for its
// unsafe `!!js/function` type. gray-matter parses and writes with safeLoad/safeDump, which never use that type, so
// in the bundle js-yaml does what it does where esprima is absent (the type then matches nothing). The build fails
// if js-yaml's file changed, rather than silently loading esprima again.
const jsYamlWithoutEsprima = {
  name: 'js-yaml-without-esprima',
  setup(b) {
    let replaced = false;
    const load = "esprima = _require('esprima');";
    b.onLoad({ filter: /[\\/]node_modules[\\/]js-yaml[\\/]lib[\\/]js-yaml[\\/]type[\\/]js[\\/]function\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(load)) return undefined;
      replaced = true;
      return { contents: source.replace(load, 'esprima = undefined;'), loader: 'js' };
    });
    b.onEnd((result) => {
      if (!replaced && result.errors.length === 0) {
        const text = "js-yaml's type/js/function.js no longer loads esprima as expected: update the js-yaml-without-esprima plugin in scripts/bundle.mjs";
        process.stderr.write(`bundle: ${text}\n`);
        return { errors: [{ text }] };
      }
    });
  },
};

const result = await build({
  absWorkingDir: root,
  entryPoints: { cli: 'src/cli.ts' },
  outdir,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'bundle',
  // Ink's optional peer, imported only under DEV=true (off, see above); not installed, so left as a plain import.
  external: ['react-devtools-core'],
  plugins: [inkDevOff, jsYamlWithoutEsprima],
  tsconfig: 'tsconfig.build.json',
  banner: { js: banner },
  // Without comments and indentation V8 has ~25% less source to scan at every start: the run path loads ~10 ms
  // faster. Names stay (full minification saved nothing more), so an error's stack still reads.
  minifyWhitespace: true,
  logLevel: 'warning',
  write: false,
}).catch(() => {
  // esbuild has already printed each error with its file and line.
  process.stderr.write('bundle: esbuild failed (errors above); dist/cli.js was not replaced\n');
  process.exit(1);
});

mkdirSync(chunksDir, { recursive: true });
const written = new Set();
let cli = null;
for (const file of result.outputFiles) {
  if (file.path === entry) {
    cli = file;
    continue;
  }
  if (path.dirname(file.path) !== chunksDir) throw new Error(`unexpected bundle output ${path.relative(root, file.path)}`);
  writeFileSync(file.path, file.contents);
  written.add(path.basename(file.path));
}
if (!cli) throw new Error('esbuild produced no dist/cli.js');
// The entry keeps src/cli.ts's `#!/usr/bin/env node` line (esbuild moves it above the banner).
const tmp = `${entry}.${process.pid}.tmp`;
writeFileSync(tmp, cli.contents);
chmodSync(tmp, 0o755);
renameSync(tmp, entry);
for (const name of readdirSync(chunksDir)) {
  if (!written.has(name)) rmSync(path.join(chunksDir, name), { force: true });
}

// The bash hook client, read by the hook server when a session starts (temp file + rename, like cli.js).
const hookScript = path.join(outdir, 'adapters', 'command-hook', 'command-hook.sh');
mkdirSync(path.dirname(hookScript), { recursive: true });
copyFileSync(path.join(root, 'src', 'adapters', 'command-hook', 'command-hook.sh'), `${hookScript}.${process.pid}.tmp`);
renameSync(`${hookScript}.${process.pid}.tmp`, hookScript);
