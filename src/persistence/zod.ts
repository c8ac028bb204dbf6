// The one zod entry point of agent-collab: zod's small functional API (`zod/mini`), which loads in a fraction of the
// time of the classic chained API. zod/mini ships no issue messages of its own (they would all read "Invalid input"),
// so the English ones the classic API used are installed here, before any schema can parse.
//
// Import it as a namespace, `import * as z from './zod.js'`, and use only `z.<function>` values: esbuild then bundles
// just those functions. A namespace passed around as a value (`import { z } from 'zod/mini'`, `export { z }`) or a
// value from `z.core.…` makes it bundle all of zod (≈700 KB, every locale, JSON schema); types are free.
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());

export * from 'zod/mini';
