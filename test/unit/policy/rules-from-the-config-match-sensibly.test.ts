import { beforeAll, describe, expect, it } from 'vitest';
import { checkCommand, initPolicy, type PolicyRules } from '../../helpers/policy.js';

beforeAll(() => initPolicy());

const only = (blocked: string[], confirm: string[] = []): PolicyRules => ({ blocked, confirm });

describe('rules written by a user', () => {
  it.each([
    ['git push -f', true],
    ['git push --force origin main', true],
    ['git push origin main', false],
    ['git log --force', false],
  ])('"git push --force" against %s → blocked: %s', (command, blocked) => {
    expect(checkCommand(command, only(['git push --force'])).decision).toBe(blocked ? 'block' : 'allow');
  });

  it.each([
    ['rm -rf /', true],
    ['rm -fr / --no-preserve-root', true],
    ['rm -rf build', false],
  ])('"rm -rf /" against %s → blocked: %s', (command, blocked) => {
    expect(checkCommand(command, only(['rm -rf /'])).decision).toBe(blocked ? 'block' : 'allow');
  });

  it.each([
    ['echo x > /etc/hosts', true],
    ['echo x >> /etc/hosts', true],
    ['echo x | sudo tee -a /etc/hosts', true],
    ['echo x > etc/hosts', false],
    ['cat /etc/hosts', false],
  ])('"> /etc/" against %s → blocked: %s', (command, blocked) => {
    expect(checkCommand(command, only(['> /etc/'])).decision).toBe(blocked ? 'block' : 'allow');
  });

  it('a harmless device matches only a rule that names it exactly', () => {
    expect(checkCommand('ls > /dev/null', only(['> /dev/'])).decision).toBe('allow');
    expect(checkCommand('ls > /dev/null', only(['> /dev/null']))).toMatchObject({
      decision: 'block',
      rule: '> /dev/null',
      matched: '> /dev/null',
    });
  });

  it('a rule that is not a simple command is matched as a plain word sequence', () => {
    const bomb = ':(){ :|:& };:';
    expect(checkCommand(bomb, only([bomb]))).toMatchObject({ decision: 'block', rule: bomb });
    expect(checkCommand('echo hello', only([bomb])).decision).toBe('allow');
    expect(checkCommand('make && make install', only(['make && make install']))).toMatchObject({
      decision: 'block',
      matched: 'make && make install',
    });
  });

  it('a subcommand rule needs the subcommand, not the same word elsewhere', () => {
    const rules = only(['docker system prune']);
    expect(checkCommand('docker system prune -af', rules).decision).toBe('block');
    expect(checkCommand('docker --context prod system prune', rules).decision).toBe('block');
    expect(checkCommand('docker run prune', rules).decision).toBe('allow');
  });

  it('blank rules match nothing', () => {
    expect(checkCommand('ls', only(['', '  '], ['']))).toMatchObject({ decision: 'allow' });
  });
});

describe('which rule wins', () => {
  const rules: PolicyRules = { blocked: ['rm -rf', 'sudo'], confirm: ['git push'] };

  it('the first matching rule in config order is reported', () => {
    expect(checkCommand('sudo rm -rf x', rules)).toMatchObject({ rule: 'rm -rf', matched: 'rm -rf x' });
    expect(checkCommand('sudo rm -rf x', { ...rules, blocked: ['sudo', 'rm -rf'] })).toMatchObject({
      rule: 'sudo',
      matched: 'sudo rm -rf x',
    });
  });

  it('block beats confirm, and confirm by a rule beats unparseable', () => {
    expect(checkCommand('git push && rm -rf x', rules)).toMatchObject({ decision: 'block', rule: 'rm -rf' });
    expect(checkCommand('git push && bash', rules)).toMatchObject({ decision: 'block', rule: 'interactive shell' });
    expect(checkCommand('rm -rf x; echo "unterminated', rules)).toMatchObject({ decision: 'block', rule: 'rm -rf' });
    expect(checkCommand('git push; echo "unterminated', rules)).toMatchObject({
      decision: 'confirm',
      rule: 'git push',
    });
  });

  it('without a sudo rule, a root shell is still an interactive shell, and sudo is seen through', () => {
    const noSudo = only(['rm -rf']);
    expect(checkCommand('sudo -i', noSudo)).toMatchObject({ decision: 'block', rule: 'interactive shell' });
    expect(checkCommand('su', noSudo)).toMatchObject({ decision: 'block', rule: 'interactive shell' });
    expect(checkCommand('sudo rm -rf /', noSudo)).toMatchObject({
      decision: 'block',
      rule: 'rm -rf',
      matched: 'rm -rf /',
    });
    expect(checkCommand('sudo ls', noSudo).decision).toBe('allow');
  });

  it('reasons name the rule, the config key and the command, on one line', () => {
    expect(checkCommand('rm -r -f build', rules).reason).toBe(
      'blocked by the rule "rm -rf" in [safety] blocked_commands: rm -r -f build',
    );
    expect(checkCommand('git push origin', rules).reason).toBe(
      'a person has to confirm it (rule "git push" in [safety] require_confirm_for): git push origin',
    );
    expect(checkCommand('python3', rules).reason).toMatch(
      /^"python3" starts an interpreter \(python3\) with no script or command.*would not be checked$/,
    );
    expect(checkCommand('echo "oops', rules).reason).toMatch(
      /^cannot be checked, so a person has to decide: syntax error/,
    );
  });
});
