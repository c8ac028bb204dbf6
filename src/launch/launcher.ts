// The agent-collab program as built (dist/agent-collab.cjs, what bin/agent-collab runs): it runs the bundle
// dist/main-<hash>.cjs through V8's code cache, so a start does not compile again what the last start of its kind
// compiled (the first agent of a run starts ~50 ms sooner, 201 vs 251 ms in `npm run bench`). Node 20 has no compile
// cache of its own and none for ES modules, hence a CommonJS bundle compiled here as one script.
//
// The bundle is wrapped like a CommonJS module, plus `__agentCollabImport`: the TUI (Ink, React) is an ES module
// bundle of its own (dist/tui/), which a script compiled here can only reach through a real module's import().
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { useWasmFlags } from '../adapters/shell-parser/wasm-flags.js';
import { compileCacheDir, compileCacheFile, readBundle, readCachedData, saveCachedData, startKind, worthCaching } from './compile-cache.js';

/** Set by the build: the main bundle's file name in dist/, and the hash of its content that the name carries. */
declare const AGENT_COLLAB_MAIN: string;
declare const AGENT_COLLAB_BUILD_ID: string;

const WRAPPER_PARAMS = ['exports', 'require', 'module', '__filename', '__dirname', '__agentCollabImport'];

function launch(): void {
  const main = path.join(__dirname, AGENT_COLLAB_MAIN);
  let bundle: ReturnType<typeof readBundle>;
  try {
    bundle = readBundle(main, AGENT_COLLAB_BUILD_ID);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? String(err);
    process.stderr.write(`agent-collab: cannot read ${main} (${why}); reinstall agent-collab\n`);
    process.exitCode = 1;
    return;
  }
  // Flags first: code cached under other V8 flags is rejected, and the shell parser sets this one later anyway.
  useWasmFlags();
  const dir = compileCacheDir(process.env);
  const kind = startKind(process.argv.slice(2));
  const cacheFile = dir === null ? null : compileCacheFile(dir, bundle.identity, kind);
  const cachedData = cacheFile === null ? undefined : readCachedData(cacheFile);
  let script: Script;
  try {
    script = new Script(`(function (${WRAPPER_PARAMS.join(', ')}) {${bundle.source}\n})`, { filename: main, cachedData });
  } catch (err) {
    process.stderr.write(`agent-collab: ${main} does not compile (${(err as Error).message.split('\n')[0]}); reinstall agent-collab\n`);
    process.exitCode = 1;
    return;
  }
  if (cacheFile !== null && (cachedData === undefined || script.cachedDataRejected === true)) {
    // Made at exit, so it holds every function this start compiled, not just the top level.
    process.once('exit', (code) => {
      if (worthCaching(kind, code)) saveCachedData(cacheFile, script.createCachedData(), AGENT_COLLAB_BUILD_ID);
    });
  }
  const mod = { exports: {} };
  const importFromDist = (specifier: string): Promise<unknown> => import(pathToFileURL(path.join(__dirname, specifier)).href);
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(mod.exports, mod.exports, createRequire(main), mod, main, __dirname, importFromDist);
}

launch();
