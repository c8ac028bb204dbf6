import { beforeAll, describe, expect, it } from 'vitest';
import { allowedByPrefix, checkCommand, initPolicy, type PolicyRules } from '../../helpers/policy.js';
import { DEFAULT_RULES } from './default-rules.js';

beforeAll(() => initPolicy());

const EMPTY: PolicyRules = { blocked: [], confirm: [] };
/** A config file written before the built-in rules existed, with its own short lists. */
const OLD_STYLE: PolicyRules = { blocked: ['rm -rf'], confirm: ['npm publish'] };

describe('built-in rules apply even when the config lists leave them out', () => {
  it.each([EMPTY, OLD_STYLE])('force pushes are blocked with %j', (rules) => {
    for (const command of ['git push --force', 'git push origin +main', 'git push --mirror', 'git push origin :x'])
      expect(checkCommand(command, rules)).toMatchObject({ decision: 'block', rule: 'force push' });
  });

  it.each([EMPTY, OLD_STYLE])('raw disk writes are blocked with %j', (rules) => {
    expect(checkCommand('mkfs.ext4 /dev/sdb1', rules)).toMatchObject({ decision: 'block', rule: 'raw disk' });
    expect(checkCommand('echo x > /dev/sda', rules)).toMatchObject({ decision: 'block', rule: 'raw disk' });
    expect(checkCommand('dd if=img of=/dev/sdb', rules)).toMatchObject({ decision: 'block', rule: 'raw disk' });
    expect(checkCommand('echo x > /dev/null', rules).decision).toBe('allow');
  });

  it.each([EMPTY, OLD_STYLE])('discarding work needs a person with %j', (rules) => {
    for (const command of ['git reset --hard', 'git checkout -- .', 'git clean -fdx', 'git stash clear'])
      expect(checkCommand(command, rules)).toMatchObject({ decision: 'confirm', rule: 'discards work' });
  });

  it("a user's own rules still apply, and win over the built-in ones in reports", () => {
    expect(checkCommand('rm -rf build', OLD_STYLE)).toMatchObject({ decision: 'block', rule: 'rm -rf' });
    expect(checkCommand('git push -f', { blocked: ['git push'], confirm: [] })).toMatchObject({
      decision: 'block',
      rule: 'git push',
    });
    expect(checkCommand('git push origin main', EMPTY).decision).toBe('allow');
  });

  it('agent-collab\'s own rollback, asked for by the person, is not held by "discards work"; blocks still hold', () => {
    const rollback = 'git restore --source=4b825dc --worktree -- .';
    expect(checkCommand(rollback, DEFAULT_RULES)).toMatchObject({ decision: 'confirm', rule: 'discards work' });
    expect(checkCommand(rollback, DEFAULT_RULES, { builtInConfirm: false }).decision).toBe('allow');
    expect(checkCommand('git push -f', DEFAULT_RULES, { builtInConfirm: false }).decision).toBe('block');
    expect(checkCommand(rollback, { blocked: [], confirm: ['git restore'] }, { builtInConfirm: false }).decision).toBe(
      'confirm',
    );
  });

  it('reasons say the rule is built in and always on', () => {
    expect(checkCommand('git push origin +main', EMPTY).reason).toBe(
      'blocked by the built-in rule "force push" (it rewrites or deletes history on a remote; always on, whatever [safety] says): git push origin +main',
    );
    expect(checkCommand('git reset --hard HEAD~1', EMPTY).reason).toBe(
      'a person has to confirm it (built-in rule "discards work": it throws away uncommitted changes or history): git reset --hard HEAD~1',
    );
  });
});

describe('no --allow-cmd prefix allows a force push or a command that could become a blocked one', () => {
  it.each([
    'git push --force origin main',
    'git push origin +main',
    'git push --force-with-lease',
    'git push --mirror',
    'git push origin --delete feature',
    'git push origin :feature',
  ])('%s is not allowed by "git push" nor "git push origin"', (command) => {
    expect(allowedByPrefix(command, ['git push', 'git push origin', 'git'], DEFAULT_RULES)).toBe(false);
  });

  it('a push whose refspec is computed at run time is not vouched for by a prefix', () => {
    expect(checkCommand('git push origin "$REF"', DEFAULT_RULES)).toMatchObject({
      decision: 'confirm',
      rule: 'force push',
    });
    expect(allowedByPrefix('git push origin "$REF"', ['git push'], DEFAULT_RULES)).toBe(false);
    expect(allowedByPrefix('git push origin feature', ['git push'], DEFAULT_RULES)).toBe(true);
  });

  it('nor a command whose options are computed, nor one whose program is', () => {
    expect(allowedByPrefix('rm $X /', ['rm'], DEFAULT_RULES)).toBe(false);
    expect(allowedByPrefix('$CMD build', ['$CMD'], DEFAULT_RULES)).toBe(false);
    expect(allowedByPrefix('source ./env.sh', ['source'], DEFAULT_RULES)).toBe(false);
  });

  it('a prefix can allow what discards work, since a person chose it', () => {
    expect(allowedByPrefix('git reset --hard HEAD~1', ['git reset --hard'], DEFAULT_RULES)).toBe(true);
    expect(allowedByPrefix('git reset --hard HEAD~1', ['git push'], DEFAULT_RULES)).toBe(false);
  });
});
