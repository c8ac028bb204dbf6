import { beforeAll, describe, expect, it } from 'vitest';
import { allowedByPrefix, initPolicy, type PolicyRules } from '../../helpers/policy.js';
import { DEFAULT_RULES } from './default-rules.js';

beforeAll(() => initPolicy());

describe('allowedByPrefix ("allow for the rest of the run", --allow-cmd)', () => {
  it.each([
    ['git push origin main', ['git push'], true],
    ['/usr/bin/git push', ['git push'], true],
    ["'git' push origin", ['git push'], true],
    ['timeout 60 git push', ['git push'], true],
    ['git push origin', ['git push upstream'], false],
    ['git push', ['git pu'], false],
    ['git push', [], false],
    ['git push && npm publish', ['git push'], false],
    ['git push && npm publish', ['git push', 'npm publish'], true],
    ['npm publish --tag next', ['npm publish'], true],
  ])('%s with %j → %s', (command, prefixes, expected) => {
    expect(allowedByPrefix(command, prefixes, DEFAULT_RULES)).toBe(expected);
  });

  it('is true when nothing needs confirmation', () => {
    expect(allowedByPrefix('npm test', [], DEFAULT_RULES)).toBe(true);
  });

  it('is never true for a blocked command', () => {
    expect(allowedByPrefix('rm -rf build', ['rm', 'rm -rf'], DEFAULT_RULES)).toBe(false);
    expect(allowedByPrefix('git push && rm -rf x', ['git push', 'rm'], DEFAULT_RULES)).toBe(false);
    expect(allowedByPrefix('bash', ['bash'], DEFAULT_RULES)).toBe(false);
  });

  it('never allows a push whose config the command line does not show, even with a `git push` prefix', () => {
    const pushes = [
      'HOME=. git push',
      'GIT_CONFIG_GLOBAL=./x git push origin main',
      'env XDG_CONFIG_HOME=. git push',
      'git -c include.path=./evil.cfg push',
    ];
    for (const command of pushes) expect(allowedByPrefix(command, ['git push', 'git'], DEFAULT_RULES)).toBe(false);
    // the same push without the hidden config is what the prefix is for
    expect(allowedByPrefix('git push origin main', ['git push'], DEFAULT_RULES)).toBe(true);
  });

  it('leaves the machine-wide commands to a person unless a prefix names them', () => {
    expect(allowedByPrefix('mount -t tmpfs none /tmp/x', [], DEFAULT_RULES)).toBe(false);
    expect(allowedByPrefix('mount -t tmpfs none /tmp/x', ['mount -t tmpfs'], DEFAULT_RULES)).toBe(true);
    expect(allowedByPrefix('mount', [], DEFAULT_RULES)).toBe(true);
  });

  it('is never true for a command that cannot be parsed', () => {
    expect(allowedByPrefix('echo "unterminated', ['echo'], DEFAULT_RULES)).toBe(false);
    expect(allowedByPrefix('git push; echo "x', ['git push', 'echo'], DEFAULT_RULES)).toBe(false);
  });

  it('covers a redirect that needs confirmation only with a prefix naming that target', () => {
    const rules: PolicyRules = { blocked: [], confirm: ['> /etc/'] };
    expect(allowedByPrefix('echo x > /etc/hosts', ['> /etc/hosts'], rules)).toBe(true);
    expect(allowedByPrefix('echo x > /etc/hosts', ['> /etc/passwd'], rules)).toBe(false);
  });
});
