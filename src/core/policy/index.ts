// The command policy: decides whether a shell command an agent wants to run is allowed, needs a person's
// confirmation, or is blocked. Matching works on a real shell parse handed in by the caller
// (src/adapters/shell-parser), so `rm -r -f`, `/bin/rm -fr`, `bash -c "rm -rf x"`, `$(…)`, `sudo`/`env`/`xargs`/
// `find -exec` all count.
export type { ParseScript, PolicyDecision, PolicyResult, PolicyRules, Script } from './types.js';
export { allowedByPrefix, checkCommand, type CheckOptions } from './check.js';
export { BUILT_IN_RULES } from './builtin-rules.js';
