import { readFile } from 'node:fs/promises';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/persistence/config-schema.js';

describe('root config.toml', () => {
  it('lists every key with exactly the built-in default', async () => {
    const raw = parse(await readFile(new URL('../../../config.toml', import.meta.url), 'utf8'));
    expect(configSchema.parse(raw)).toEqual(configSchema.parse({}));
    expect(JSON.parse(JSON.stringify(raw))).toEqual(configSchema.parse({}));
  });
});
