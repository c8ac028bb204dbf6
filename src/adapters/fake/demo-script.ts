// The script of `agent-collab demo`: one round of changes, then approval, then three steps that write files.
import type { FakeScript } from './script.js';

const PLAN_V1 = `# Task: Add a greeting module

## Goal
Add \`src/greeting.mjs\` exporting \`greet(name)\`, which returns "Hello, <name>!", with a unit test run by \`node --test\`.

## Steps
1. [ ] Add \`src/greeting.mjs\` exporting \`greet(name)\`
2. [ ] Add \`test/greeting.test.mjs\` for \`greet()\` and run \`node --test test/\`
`;

const REVIEW_1 = `## Comments
1. Step 1 does not say what \`greet()\` returns for an empty or missing name; specify a fallback such as "Hello, world!" and test it in step 2.
2. Nothing documents the new module; add a step that describes \`greet()\` in \`docs/greeting.md\`.`;

const PLAN_V2 = `# Task: Add a greeting module

## Goal
Add \`src/greeting.mjs\` exporting \`greet(name)\`, which returns "Hello, <name>!" and "Hello, world!" for an empty or missing name, with unit tests run by \`node --test\` and a short doc page.

## Steps
1. [ ] Add \`src/greeting.mjs\` exporting \`greet(name)\` with the "Hello, world!" fallback
2. [ ] Add \`test/greeting.test.mjs\` covering a name and the fallback; run \`node --test test/\`
3. [ ] Describe \`greet()\` in \`docs/greeting.md\`

## Risks
- None: the change only adds new files.

## Responses to review
1. Step 1 now specifies the fallback, and step 2 tests it.
2. Added step 3, which documents the module in \`docs/greeting.md\`.
`;

const GREETING = `/** Returns a greeting for \`name\`, or "Hello, world!" when the name is empty or missing. */
export function greet(name) {
  const who = typeof name === 'string' && name.trim() !== '' ? name.trim() : 'world';
  return \`Hello, \${who}!\`;
}
`;

const GREETING_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { greet } from '../src/greeting.mjs';

test('greets by name', () => {
  assert.equal(greet('Ada'), 'Hello, Ada!');
});

test('falls back to the world', () => {
  assert.equal(greet(''), 'Hello, world!');
  assert.equal(greet(), 'Hello, world!');
});
`;

const GREETING_DOC = `# greeting

\`greet(name)\` from \`src/greeting.mjs\` returns \`"Hello, <name>!"\`, or \`"Hello, world!"\` when \`name\` is empty or missing.
`;

export const DEMO_SCRIPT: FakeScript = {
  rules: [
    { when: { kind: 'write_plan' }, do: { text: PLAN_V1 } },
    { when: { kind: 'review' }, times: 1, do: { verdict: 'CHANGES_REQUIRED', text: REVIEW_1 } },
    {
      when: { kind: 'review' },
      do: { verdict: 'APPROVED', text: '## Comments\n1. The fallback and the documentation step address my comments.' },
    },
    { when: { kind: 'respond' }, do: { text: PLAN_V2 } },
    {
      when: { kind: 'execute_step', step: 1 },
      do: {
        events: [{ type: 'reasoning', text: 'The module is a single pure function; no dependencies needed.' }],
        writeFiles: { 'src/greeting.mjs': GREETING },
        text: 'Added src/greeting.mjs with greet(name) and the "Hello, world!" fallback.\nSummary: add greet() with a fallback for empty names',
      },
    },
    {
      when: { kind: 'execute_step', step: 2 },
      do: {
        events: [
          { type: 'command', command: 'node --test test/', status: 'started' },
          {
            type: 'command',
            command: 'node --test test/',
            status: 'completed',
            exitCode: 0,
            output: '# tests 2\n# pass 2\n# fail 0',
          },
        ],
        writeFiles: { 'test/greeting.test.mjs': GREETING_TEST },
        text: 'Added two tests; `node --test test/` passes (2 tests).\nSummary: test greet() with a name and the fallback',
      },
    },
    {
      when: { kind: 'execute_step', step: 3 },
      do: {
        writeFiles: { 'docs/greeting.md': GREETING_DOC },
        text: 'Documented greet() in docs/greeting.md.\nSummary: document greet() in docs/greeting.md',
      },
    },
  ],
};
