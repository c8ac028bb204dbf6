// Guesses a repo's test command from its files. First match wins, in this order:
//   1. pytest        — pytest.ini; pyproject.toml with a [tool.pytest…] table; setup.cfg with [tool:pytest];
//                      tox.ini with [pytest]
//   2. npm test      — package.json with a scripts.test that is not npm's "no test specified" placeholder
//   3. cargo test    — Cargo.toml
//   4. go test ./... — go.mod
// Python comes first because a Python project often carries a package.json for its front-end tooling.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** What `npm init` writes as scripts.test. */
const NPM_PLACEHOLDER = /no test specified/i;

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Whether `text` has a line starting a table/section whose header matches `header` (e.g. /\[tool\.pytest/). */
function hasSection(text: string | null, header: RegExp): boolean {
  return text !== null && text.split(/\r?\n/).some((line) => header.test(line.trim()));
}

type PytestFile = 'pyproject.toml' | 'setup.cfg' | 'tox.ini';

function usesPytest(files: Record<PytestFile, string | null>, hasPytestIni: boolean): boolean {
  return (
    hasPytestIni ||
    hasSection(files['pyproject.toml'], /^\[tool\.pytest(?:\.|\])/) ||
    hasSection(files['setup.cfg'], /^\[tool:pytest\]/) ||
    hasSection(files['tox.ini'], /^\[pytest\]/)
  );
}

function hasNpmTestScript(text: string | null): boolean {
  if (text === null) return false;
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    return false; // malformed package.json: not detected; the person can set [test] default_command
  }
  if (typeof pkg !== 'object' || pkg === null) return false;
  const scripts = (pkg as { scripts?: unknown }).scripts;
  if (typeof scripts !== 'object' || scripts === null) return false;
  const test = (scripts as { test?: unknown }).test;
  return typeof test === 'string' && test.trim() !== '' && !NPM_PLACEHOLDER.test(test);
}

/** The test command this repo's files suggest, or null when none does. Never throws. */
export function detectTestCommand(repoRoot: string): string | null {
  // The order above decides: the first tool whose files are there.
  const at = (name: string): string => path.join(repoRoot, name);
  const files = {
    'pyproject.toml': read(at('pyproject.toml')),
    'setup.cfg': read(at('setup.cfg')),
    'tox.ini': read(at('tox.ini')),
  };
  if (usesPytest(files, existsSync(at('pytest.ini')))) return 'pytest';
  if (hasNpmTestScript(read(at('package.json')))) return 'npm test';
  if (existsSync(at('Cargo.toml'))) return 'cargo test';
  if (existsSync(at('go.mod'))) return 'go test ./...';
  return null;
}
