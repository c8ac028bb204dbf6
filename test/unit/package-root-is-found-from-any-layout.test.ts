import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findPackage, fromPackageRoot, packageInfo } from '../../src/package-root.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const temps: string[] = [];

function tempTree(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-collab-pkgroot-'));
  temps.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('package root', () => {
  it('is this checkout when running from the sources, with its version', () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    expect(packageInfo()).toEqual({ root: repoRoot, version: pkg.version });
    expect(fromPackageRoot('prompts')).toBe(path.join(repoRoot, 'prompts'));
  });

  it('is found from a bundle chunk deep inside an installed package, skipping package.json files of other names', () => {
    const top = tempTree();
    writeFileSync(path.join(top, 'package.json'), JSON.stringify({ name: 'the-users-project' }));
    const installed = path.join(top, 'node_modules', 'agent-collab');
    const chunks = path.join(installed, 'dist', 'chunks');
    mkdirSync(chunks, { recursive: true });
    writeFileSync(path.join(installed, 'package.json'), JSON.stringify({ name: 'agent-collab', version: '9.8.7' }));
    writeFileSync(path.join(installed, 'dist', 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(path.join(chunks, 'package.json'), '{ not json');
    expect(findPackage(chunks)).toEqual({ root: installed, version: '9.8.7' });
  });

  it('says to reinstall when no package.json above is agent-collab', () => {
    const top = tempTree();
    writeFileSync(path.join(top, 'package.json'), JSON.stringify({ name: 'something-else', version: '1.0.0' }));
    expect(() => findPackage(top)).toThrow(
      /^cannot find agent-collab's package\.json above .*; reinstall agent-collab$/,
    );
  });
});
