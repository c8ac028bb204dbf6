import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/persistence/config-schema.js';
import { resolvePaths } from '../../../src/persistence/paths.js';

describe('resolvePaths', () => {
  it('puts everything under <repo>/.agent-collab by default', () => {
    const root = path.resolve('/repo');
    const w = path.join(root, '.agent-collab');
    expect(resolvePaths('/repo', configSchema.parse({}))).toEqual({
      repoRoot: root,
      workdir: w,
      state: path.join(w, 'state.json'),
      plan: path.join(w, 'plan.md'),
      comments: path.join(w, 'comments.md'),
      ledger: path.join(w, 'ledger.md'),
      log: path.join(w, 'log.md'),
      debugLog: path.join(w, 'debug.log'),
      history: path.join(w, 'history'),
      runs: path.join(w, 'runs'),
      promptsOverride: path.join(w, 'prompts'),
      configFile: path.join(w, 'config.toml'),
    });
  });

  it('follows paths.* from the config; the project config file does not move', () => {
    const config = configSchema.parse({ paths: { workdir: 'tmp/collab', plan: 'PLAN.md' } });
    const p = resolvePaths('/repo', config);
    expect(p.workdir).toBe(path.resolve('/repo/tmp/collab'));
    expect(p.plan).toBe(path.resolve('/repo/tmp/collab/PLAN.md'));
    expect(p.configFile).toBe(path.resolve('/repo/.agent-collab/config.toml'));
  });
});
