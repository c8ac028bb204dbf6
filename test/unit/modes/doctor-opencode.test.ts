import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { opencodeCheck } from '../../../src/modes/doctor-opencode.js';
import { configSchema } from '../../../src/persistence/config-schema.js';

describe('doctor on opencode', () => {
  it('says nothing when no role uses opencode', () => {
    expect(opencodeCheck(configSchema.parse({}), {})).toBeNull();
  });

  it('names the model source: [roles] first, else opencode config file, and says the turns run in the box', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'ac-doctor-oc-'));
    try {
      const env = { HOME: home };
      const withRole = opencodeCheck(
        configSchema.parse({ roles: { planner: 'opencode', planner_model: 'local/m1' } }),
        env,
      );
      expect(withRole).toMatchObject({ ok: true });
      expect(withRole?.detail).toContain('model local/m1 from [roles]');
      expect(withRole?.detail).toContain('bubblewrap box');

      const none = opencodeCheck(configSchema.parse({ roles: { reviewer: 'opencode' } }), env);
      expect(none?.detail).toContain("opencode's default model");

      mkdirSync(path.join(home, '.config', 'opencode'), { recursive: true });
      const file = path.join(home, '.config', 'opencode', 'opencode.json');
      writeFileSync(file, '{}');
      const fromFile = opencodeCheck(configSchema.parse({ roles: { reviewer: 'opencode' } }), env);
      expect(fromFile?.detail).toContain(`model and provider from ${file}`);

      const off = opencodeCheck(
        configSchema.parse({ roles: { planner: 'opencode' }, safety: { sandbox: 'off' } }),
        env,
      );
      expect(off?.detail).toContain('UNCONFINED');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
