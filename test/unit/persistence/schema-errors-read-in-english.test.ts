// zod/mini has no issue messages of its own (every one would read "Invalid input"); src/persistence/zod.ts gives it
// zod's English ones, so what a person reads about a broken state.json or fake script says what is wrong.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFakeScript } from '../../../src/adapters/fake/script.js';
import { newState, readState } from '../../../src/persistence/state-store.js';
import { tempDir } from './tmp-dir.js';

describe('schema errors', () => {
  it('name the allowed values of a broken state.json field', async () => {
    const workdir = path.join(await tempDir(), '.agent-collab');
    const paths = { workdir, state: path.join(workdir, 'state.json') };
    await mkdir(workdir, { recursive: true });
    const state = newState({ runId: 'r1', goal: 'g', mode: 'manual', maxIterations: 5 });
    await writeFile(paths.state, JSON.stringify({ ...state, mode: 'sometimes' }));
    const result = await readState(paths);
    expect(result.kind === 'corrupt' && result.reason).toBe(
      'does not match the state schema: mode: Invalid option: expected one of "manual"|"auto"',
    );
  });

  it.each([
    ['{"rules":[{"do":{"txt":"x"}}]}', 'rules.0.do: Unrecognized key: "txt"'],
    ['{"rules":[{"times":1.5,"do":{}}]}', 'rules.0.times: Invalid input: expected int, received number'],
    ['{"rules":[{"do":{"stream":{"lines":-1}}}]}', 'rules.0.do.stream.lines: Too small: expected number to be >=0'],
  ])('say what is wrong in a fake script: %s', async (json, expected) => {
    const file = path.join(await tempDir(), 'script.json');
    await writeFile(file, json);
    await expect(loadFakeScript(file)).rejects.toThrow(`fake script ${file} is invalid at ${expected}`);
  });
});
