import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/persistence/config-schema.js';
import { fromPackageRoot } from '../../../src/package-root.js';

/** Every leaf of the built-in defaults as `a.b.c` → value. */
function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value))
      for (const [kk, vv] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(kk, vv);
  } else {
    out.set(prefix, value);
  }
  return out;
}

/** The rows of the user guide's configuration table: `key` → default as written. */
function documented(): Map<string, string> {
  const guide = readFileSync(fromPackageRoot('docs/user-guide.md'), 'utf8');
  const section = guide.slice(guide.indexOf('## Configuration'));
  const rows = new Map<string, string>();
  for (const m of section.matchAll(/^\| `([a-z_.]+)` \| `(.*?)` \|/gm)) rows.set(m[1]!, m[2]!);
  return rows;
}

describe("the user guide's config table", () => {
  it('lists every config key with its built-in default, and no key that does not exist', () => {
    const defaults = leaves(configSchema.parse({}));
    const rows = documented();
    expect([...rows.keys()].sort()).toEqual([...defaults.keys()].sort());
    for (const [key, value] of defaults) expect(JSON.parse(rows.get(key)!), key).toEqual(value);
  });
});
