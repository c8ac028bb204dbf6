// The command policy: decides whether a shell command an agent wants to run is allowed, needs a person's
// confirmation, or is blocked. Matching works on a real shell parse (tree-sitter-bash), so `rm -r -f`,
// `/bin/rm -fr`, `bash -c "rm -rf x"`, `$(…)`, `sudo`/`env`/`xargs`/`find -exec` all count.
//
// The parser is WebAssembly and loads asynchronously: call `await initPolicy()` once (it is idempotent);
// `checkCommand` and `allowedByPrefix` are synchronous after that and throw if it was not called.
export type { PolicyDecision, PolicyResult, PolicyRules } from './types.js';
export { initPolicy } from './syntax.js';
export { allowedByPrefix, checkCommand } from './check.js';
