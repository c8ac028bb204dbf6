#!/usr/bin/env node
// `npm run build`, second half: bundles agent-collab into a few files, replacing the per-file dist/cli.js that tsc
// wrote. Loading one bundle instead of ~330 separate modules is what makes startup fast.
//
//   dist/main-<hash>.cjs     src/cli.ts and everything it runs, as one CommonJS script (no Ink, no React)
//   dist/tui/tui-<hash>.js   the TUI's Ink and React side (src/ui/tui.ts), an ES module: Ink's dependencies use
//                            top-level await, which CommonJS cannot have
//   dist/agent-collab.cjs    the launcher (src/launch/launcher.ts): runs the main bundle through V8's code cache
//   dist/cli.js              `node dist/cli.js …` for those who start it that way: loads the launcher
//
// The rest of tsc's per-file dist/ stays: the .wasm/prompt files are found from the package root at run time
// (src/package-root.ts). The command hook client (command-hook.sh), which tsc does not copy, is copied to
// dist/adapters/command-hook/.
//
// Files are written so that a process starting agent-collab during the build never sees half an output: the bundles
// first (their names carry a content hash), then the launcher and dist/cli.js by rename, then the bundles no longer
// referenced are removed.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist');
const tuiDir = path.join(outdir, 'tui');

// CommonJS dependencies call `require` (react, signal-exit, …) and use `__filename` or `__dirname`; ESM output has
// none of these, so the TUI bundle defines them for itself.
const esmBanner = [
  "import { createRequire as __agentCollabCreateRequire } from 'node:module';",
  "import { fileURLToPath as __agentCollabFileURLToPath } from 'node:url';",
  "import { dirname as __agentCollabDirname } from 'node:path';",
  'const require = __agentCollabCreateRequire(import.meta.url);',
  'const __filename = __agentCollabFileURLToPath(import.meta.url);',
  'const __dirname = __agentCollabDirname(__filename);',
].join('\n');

// Ink's DEV=true mode connects to React DevTools (react-devtools-core, not a dependency) and then reads Ink's own
// package.json next to its module, which in the bundle is a path inside dist/ that does not exist: the TUI would
// crash for anyone with DEV=true in their environment. In the bundle that mode is off, and the module that would
// connect is empty (the TUI bundle is one file: its import of react-devtools-core would run at load). The build
// fails if Ink's files moved, rather than shipping the crash.
const inkDevOff = {
  name: 'ink-dev-off',
  setup(b) {
    const replaced = new Set();
    b.onLoad({ filter: /[\\/]node_modules[\\/]ink[\\/]build[\\/]utils\.js$/ }, () => {
      replaced.add('utils');
      return { contents: 'export const isDev = () => false;', loader: 'js' };
    });
    b.onLoad({ filter: /[\\/]node_modules[\\/]ink[\\/]build[\\/]devtools\.js$/ }, () => {
      replaced.add('devtools');
      return { contents: 'export {};', loader: 'js' };
    });
    b.onEnd((result) => {
      if (replaced.size !== 2 && result.errors.length === 0) {
        const text = "ink/build/utils.js (Ink's isDev) or ink/build/devtools.js was not found: update the ink-dev-off plugin in scripts/bundle.mjs";
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

// Ink, React and Yoga belong to the TUI bundle only: in the main bundle they would be a second React (hooks break) and
// top-level await (CommonJS has none).
const uiOnly = {
  name: 'ui-only-in-the-tui-bundle',
  setup(b) {
    b.onResolve({ filter: /^(ink|react|react-reconciler|yoga-layout)(\/.*)?$/ }, (args) => ({
      errors: [{ text: `${args.path} is imported by ${path.relative(root, args.importer)}, which the main bundle loads: Ink and React must only be reached through src/ui/tui.ts` }],
    }));
  },
};

// web-tree-sitter loads two Node built-ins with import(): the main bundle cannot (see above), and require gives the
// same modules.
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(b) {
    b.onResolve({ filter: /^[a-z_/:]+$/ }, (args) => {
      if (args.kind !== 'dynamic-import' || !isBuiltin(args.path)) return undefined;
      return { path: args.path, namespace: 'builtin-require' };
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin-require' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/** The main bundle reaches the TUI bundle through the launcher's import (see src/launch/launcher.ts). */
function tuiThroughLauncher(tuiFile) {
  return {
    name: 'tui-through-launcher',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]ui[\\/]import-tui\.ts$/ }, () => ({
        contents: `export function importTui() { return __agentCollabImport(${JSON.stringify(tuiFile)}); }`,
        loader: 'js',
      }));
    },
  };
}

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  packages: 'bundle',
  tsconfig: 'tsconfig.build.json',
  // Without comments and indentation V8 has ~25% less source to scan at every start. Names stay (full minification
  // saved nothing more), so an error's stack still reads.
  minifyWhitespace: true,
  logLevel: 'warning',
  write: false,
};

async function bundle(what, options) {
  const result = await build({ ...common, ...options }).catch(() => {
    // esbuild has already printed each error with its file and line.
    process.stderr.write(`bundle: esbuild failed on ${what} (errors above); dist/ was not changed\n`);
    process.exit(1);
  });
  if (result.outputFiles.length !== 1) throw new Error(`bundle: ${what} gave ${result.outputFiles.length} files, expected 1`);
  return result.outputFiles[0].text;
}

const hashOf = (text) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** Writes `text` to `file` through a temp file and a rename. */
function writeAtomically(file, text, mode = 0o644) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  chmodSync(tmp, mode);
  renameSync(tmp, file);
}

const tuiText = await bundle('the TUI', {
  entryPoints: ['src/ui/tui.ts'],
  outfile: path.join(tuiDir, 'tui.js'),
  format: 'esm',
  plugins: [inkDevOff],
  banner: { js: esmBanner },
});
const tuiName = `tui-${hashOf(tuiText)}.js`;

const mainText = (
  await bundle('the main bundle', {
    entryPoints: ['src/cli.ts'],
    outfile: path.join(outdir, 'main.cjs'),
    format: 'cjs',
    plugins: [uiOnly, jsYamlWithoutEsprima, builtinsThroughRequire, tuiThroughLauncher(`./tui/${tuiName}`)],
    // package-root.ts and bash-client.ts ask where they are; in the bundle that is dist/main-<hash>.cjs.
    define: { 'import.meta.url': '__agentCollabModuleUrl' },
    // ES modules are strict, and the bundled sources were written as ES modules.
    banner: { js: `"use strict";var __agentCollabModuleUrl=require("node:url").pathToFileURL(__filename).href;` },
  })
)
  // The launcher compiles the bundle as a function body, where a #! line cannot stand.
  .replace(/^#!.*\n/, '')
  // esbuild leaves non-ASCII characters in regular expressions as they are; escaped, the bundle is pure ASCII and the
  // launcher reads it as latin1 (no UTF-8 decoding: ~4 ms of every start).
  .replace(/(\\?)([\u0080-\uffff])/g, (_, backslash, c) => {
    if (backslash) throw new Error(`bundle: an escaped non-ASCII character (\\${c}) cannot be rewritten as \\u${c.charCodeAt(0).toString(16)}`);
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
// Run as a script compiled by the launcher, the bundle has no import() of its own (V8 would refuse it at run time).
if (/\bimport\(/.test(mainText)) throw new Error('bundle: the main bundle calls import(); route it through the launcher (see tuiThroughLauncher)');
const buildId = hashOf(mainText);
const mainName = `main-${buildId}.cjs`;

const launcherText = await bundle('the launcher', {
  entryPoints: ['src/launch/launcher.ts'],
  outfile: path.join(outdir, 'agent-collab.cjs'),
  format: 'cjs',
  define: { AGENT_COLLAB_BUILD_ID: JSON.stringify(buildId), AGENT_COLLAB_MAIN: JSON.stringify(mainName) },
});

mkdirSync(tuiDir, { recursive: true });
writeAtomically(path.join(tuiDir, tuiName), tuiText);
writeAtomically(path.join(outdir, mainName), mainText);
writeAtomically(path.join(outdir, 'agent-collab.cjs'), launcherText);
writeAtomically(
  path.join(outdir, 'cli.js'),
  ["#!/usr/bin/env node", "// `node dist/cli.js …`: the launcher (bin/agent-collab runs it directly).", "import { createRequire } from 'node:module';", "createRequire(import.meta.url)('./agent-collab.cjs');", ''].join('\n'),
  0o755,
);
for (const name of readdirSync(tuiDir)) if (name !== tuiName) rmSync(path.join(tuiDir, name), { force: true });
for (const name of readdirSync(outdir)) if (/^main-[0-9a-f]+\.cjs$/.test(name) && name !== mainName) rmSync(path.join(outdir, name), { force: true });
// The ES module bundle of earlier builds.
rmSync(path.join(outdir, 'chunks'), { recursive: true, force: true });

// The bash hook client, read by the hook server when a session starts (temp file + rename, like the bundles).
const hookScript = path.join(outdir, 'adapters', 'command-hook', 'command-hook.sh');
mkdirSync(path.dirname(hookScript), { recursive: true });
copyFileSync(path.join(root, 'src', 'adapters', 'command-hook', 'command-hook.sh'), `${hookScript}.${process.pid}.tmp`);
renameSync(`${hookScript}.${process.pid}.tmp`, hookScript);
