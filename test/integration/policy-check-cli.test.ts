import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempRepo } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function repo(config?: string) {
  const r = tempRepo(config);
  cleanup = r.cleanup;
  return r;
}

describe('agent-collab policy check', () => {
  it('prints decision, rule and matched sub-command; exit 0 allow, 1 confirm, 2 block', async () => {
    const r = repo();
    const check = (command: string) => runCli(['policy', 'check', command], { cwd: r.dir, home: r.home }).done;

    const blocked = await check('echo ok > a.txt && rm -r -f build');
    expect(blocked.stdout).toBe(
      'block  rule "rm -rf" matched "rm -r -f build"\n       blocked by the rule "rm -rf" in [safety] blocked_commands: rm -r -f build\n',
    );
    expect(blocked.code).toBe(2);

    const held = await check('git add . && git -C . push origin main');
    expect(held.stdout.split('\n')[0]).toBe('confirm rule "git push" matched "git -C . push origin main"');
    expect(held.code).toBe(1);

    const unparseable = await check('echo "unterminated');
    expect(unparseable.stdout.split('\n')[0]).toBe('confirm rule "unparseable" matched "echo \\"unterminated"');
    expect(unparseable.code).toBe(1);

    const shell = await check('bash');
    expect(shell.stdout.split('\n')[0]).toBe('block  rule "interactive shell" matched "bash"');
    expect(shell.code).toBe(2);

    const fine = await check('echo "rm -rf" > /dev/null 2>&1');
    expect(fine).toMatchObject({ code: 0, stdout: 'allow  no rule matched\n', stderr: '' });
  });

  it('--json prints one JSON object with the result, the command and the config files read', async () => {
    const r = repo('[safety]\nblocked_commands = ["make deploy"]\n');
    const out = await runCli(['policy', 'check', '--json', 'sudo make deploy'], { cwd: r.dir, home: r.home }).done;
    expect(out.code).toBe(2);
    const lines = out.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      decision: 'block',
      rule: 'make deploy',
      matched: 'make deploy',
      reason: 'blocked by the rule "make deploy" in [safety] blocked_commands: make deploy',
      command: 'sudo make deploy',
      config: [path.join(r.dir, '.agent-collab', 'config.toml')],
    });
  });

  it('uses the project config of the repo: its lists replace the defaults', async () => {
    const r = repo('[safety]\nblocked_commands = ["make deploy"]\nrequire_confirm_for = []\n');
    const rmrf = await runCli(['policy', 'check', 'rm -rf build'], { cwd: r.dir, home: r.home }).done;
    expect(rmrf).toMatchObject({ code: 0, stdout: 'allow  no rule matched\n' });
    const sub = path.join(r.dir, 'src');
    mkdirSync(sub);
    const deploy = await runCli(['policy', 'check', 'make deploy'], { cwd: sub, home: r.home }).done;
    expect(deploy.code).toBe(2);
  });

  it('built-in rules hold when the project lists replace the defaults; computed commands are held', async () => {
    const r = repo('[safety]\nblocked_commands = ["make deploy"]\nrequire_confirm_for = []\n');
    const check = (command: string) => runCli(['policy', 'check', command], { cwd: r.dir, home: r.home }).done;

    const push = await check('git push origin +main');
    expect(push.stdout).toBe(
      'block  rule "force push" matched "git push origin +main"\n' +
        '       blocked by the built-in rule "force push" (it rewrites or deletes history on a remote; always on, whatever [safety] says): git push origin +main\n',
    );
    expect(push.code).toBe(2);

    const reset = await check('git reset --hard HEAD~1');
    expect(reset.stdout.split('\n')[0]).toBe('confirm rule "discards work" matched "git reset --hard HEAD~1"');
    expect(reset.code).toBe(1);

    const glob = await check('/bin/r? -rf /');
    expect(glob.stdout).toBe(
      'confirm rule "cannot tell what runs" matched "/bin/r? -rf /"\n' +
        '       cannot tell what will run, so a person has to decide: the program name /bin/r? is a pattern the shell expands at run time\n',
    );
    expect(glob.code).toBe(1);

    const computed = await runCli(['policy', 'check', 'X=-rf; rm $X /'], { cwd: r.home, home: r.home }).done;
    expect(computed.stdout.split('\n')[0]).toBe('confirm rule "rm -rf" matched "rm $X /"');
    expect(computed.code).toBe(1);
  });

  it('outside a git repo, the user config and the defaults apply', async () => {
    const r = repo();
    const userFile = path.join(r.home, '.config', 'agent-collab', 'config.toml');
    mkdirSync(path.dirname(userFile), { recursive: true });
    writeFileSync(userFile, '[safety]\nrequire_confirm_for = ["terraform apply"]\n');
    const outside = path.join(r.home, 'not-a-repo');
    mkdirSync(outside);
    const tf = await runCli(['policy', 'check', '--json', 'terraform apply -auto-approve'], {
      cwd: outside,
      home: r.home,
    }).done;
    expect(tf.code).toBe(1);
    expect(JSON.parse(tf.stdout)).toMatchObject({ decision: 'confirm', rule: 'terraform apply', config: [userFile] });
    const sudo = await runCli(['policy', 'check', 'sudo ls'], { cwd: outside, home: r.home }).done;
    expect(sudo.code).toBe(2);
  });

  it('a broken config, a missing command or unquoted words give one line on stderr and exit 2', async () => {
    const r = repo('[safety]\nblocked_commands = "rm -rf"\n');
    const broken = await runCli(['policy', 'check', 'ls'], { cwd: r.dir, home: r.home }).done;
    expect(broken.code).toBe(2);
    expect(broken.stdout).toBe('');
    expect(broken.stderr).toMatch(/^agent-collab: config error in .*config\.toml: safety\.blocked_commands .*\n$/);

    const missing = await runCli(['policy', 'check'], { cwd: r.dir, home: r.home }).done;
    expect(missing).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "agent-collab: policy check needs a command: agent-collab policy check '<command>'\n",
    });

    const unquoted = await runCli(['policy', 'check', 'rm', '-rf', 'x'], { cwd: r.dir, home: r.home }).done;
    expect(unquoted.code).toBe(2);
    expect(unquoted.stderr).toMatch(/^agent-collab: .*pass the command as one quoted argument.*\n$/);
  });
});
