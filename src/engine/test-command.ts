// Guesses a repo's test command from its files. First match wins, in this order:
//   1. pytest        — pytest.ini; pyproject.toml with a [tool.pytest…] table; setup.cfg with [tool:pytest];
//                      tox.ini with [pytest]
//   2. npm test      — package.json with a scripts.test that is not npm's "no test specified" placeholder
//   3. cargo test    — Cargo.toml
//   4. go test ./... — go.mod
// Python comes first because a Python project often carries a package.json for its front-end tooling.
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';

/** What `npm init` writes as scripts.test. */
const NPM_PLACEHOLDER = /no test specified/i;

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

async function read(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
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
export async function detectTestCommand(repoRoot: string): Promise<string | null> {
  // Every file is looked at once, at the same time (this runs before each step's tests); the order above decides.
  const at = (name: string): string => path.join(repoRoot, name);
  const [pytestIni, pyproject, setupCfg, toxIni, packageJson, cargo, goMod] = await Promise.all([
    exists(at('pytest.ini')),
    read(at('pyproject.toml')),
    read(at('setup.cfg')),
    read(at('tox.ini')),
    read(at('package.json')),
    exists(at('Cargo.toml')),
    exists(at('go.mod')),
  ]);
  if (usesPytest({ 'pyproject.toml': pyproject, 'setup.cfg': setupCfg, 'tox.ini': toxIni }, pytestIni)) return 'pytest';
  if (hasNpmTestScript(packageJson)) return 'npm test';
  if (cargo) return 'cargo test';
  if (goMod) return 'go test ./...';
  return null;
}
