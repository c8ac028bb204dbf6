import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectTestCommand } from '../../../src/adapters/test-command.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function repo(files: Record<string, string>): string {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ac-detect-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  return dir;
}

const NPM_INIT_TEST = 'echo "Error: no test specified" && exit 1';

describe('test command detection', () => {
  it.each<[string, Record<string, string>, string | null]>([
    ['pytest.ini', { 'pytest.ini': '[pytest]\n' }, 'pytest'],
    [
      'pyproject.toml with [tool.pytest.ini_options]',
      { 'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n' },
      'pytest',
    ],
    ['pyproject.toml with [tool.pytest]', { 'pyproject.toml': '[tool.pytest]\n' }, 'pytest'],
    [
      'setup.cfg with [tool:pytest]',
      { 'setup.cfg': '[metadata]\nname = x\n[tool:pytest]\ntestpaths = tests\n' },
      'pytest',
    ],
    ['tox.ini with [pytest]', { 'tox.ini': '[tox]\nenvlist = py311\n\n[pytest]\naddopts = -q\n' }, 'pytest'],
    [
      'package.json with a test script',
      { 'package.json': JSON.stringify({ scripts: { test: 'vitest run' } }) },
      'npm test',
    ],
    ['Cargo.toml', { 'Cargo.toml': '[package]\nname = "x"\n' }, 'cargo test'],
    ['go.mod', { 'go.mod': 'module example.com/x\n\ngo 1.22\n' }, 'go test ./...'],
  ])('%s', (_what, files, expected) => {
    expect(detectTestCommand(repo(files))).toBe(expected);
  });

  it.each<[string, Record<string, string>]>([
    ['an empty repo', {}],
    [
      'pyproject.toml without pytest',
      {
        'pyproject.toml':
          '[project]\nname = "x"\n[tool.black]\nline-length = 100\n# [tool.pytest] is only mentioned here\n',
      },
    ],
    ['setup.cfg without [tool:pytest]', { 'setup.cfg': '[flake8]\nmax-line-length = 100\n' }],
    ['tox.ini without [pytest]', { 'tox.ini': '[tox]\nenvlist = py311\n' }],
    ["npm init's placeholder test script", { 'package.json': JSON.stringify({ scripts: { test: NPM_INIT_TEST } }) }],
    ['package.json without scripts', { 'package.json': JSON.stringify({ name: 'x' }) }],
    ['an empty test script', { 'package.json': JSON.stringify({ scripts: { test: '  ' } }) }],
    ['a test script that is not a string', { 'package.json': JSON.stringify({ scripts: { test: ['jest'] } }) }],
    ['a malformed package.json', { 'package.json': '{ "scripts": { "test": "jest", } ' }],
    ['a package.json holding null', { 'package.json': 'null' }],
  ])('nothing for %s', (_what, files) => {
    expect(detectTestCommand(repo(files))).toBeNull();
  });

  it('takes the first match: pytest, then npm test, then cargo test, then go test', () => {
    const all = {
      'pytest.ini': '',
      'package.json': JSON.stringify({ scripts: { test: 'jest' } }),
      'Cargo.toml': '',
      'go.mod': '',
    };
    expect(detectTestCommand(repo(all))).toBe('pytest');
    rmSync(path.join(dir, 'pytest.ini'));
    expect(detectTestCommand(dir)).toBe('npm test');
    rmSync(path.join(dir, 'package.json'));
    expect(detectTestCommand(dir)).toBe('cargo test');
    rmSync(path.join(dir, 'Cargo.toml'));
    expect(detectTestCommand(dir)).toBe('go test ./...');
  });

  it('a malformed package.json does not hide the ecosystems after it', () => {
    expect(detectTestCommand(repo({ 'package.json': '{oops', 'go.mod': 'module x\n' }))).toBe('go test ./...');
  });
});
