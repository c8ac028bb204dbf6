// The V8 flag the shell parser runs under. The grammar is ~1.4 MB of WASM: V8 compiles it fast (Liftoff), then again
// with TurboFan in the background, and a process cannot exit before that finishes (~1 s on every `run` and `policy
// check`). Parsing one command line is microseconds either way, so only the fast tier is used. The launcher sets the
// same flag before the bundle compiles: V8 rejects code cached under other flags, and the cache is made at exit.
import { setFlagsFromString } from 'node:v8';

export const WASM_FLAGS = '--liftoff-only';

export function useWasmFlags(): void {
  setFlagsFromString(WASM_FLAGS);
}
