// `agent-collab doctor`: checks everything a run needs and prints, for each problem, the command that fixes it.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { opencodeCheck } from './doctor-opencode.js';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { execa } from 'execa';
import { findRepoRoot } from '../adapters/git/git.js';
import type { AgentName, Config } from '../persistence/config-schema.js';
import { geminiModelCheck } from './doctor-gemini.js';
import { loadConfig } from '../persistence/config.js';
import { createRedactor, secretEnvValues } from '../core/redact.js';
import { UserError } from '../core/errors.js';
import { checkPathsStayInRepo, resolvePaths } from '../persistence/paths.js';
import {
  CONFINEMENT_INSTALL_HINT,
  SANDBOX_OFF_HINT,
  probeConfinement,
  type Confinement,
} from '../adapters/confinement/index.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** What to run or do when it is not ok. */
  fix?: string;
}

const INSTALL: Record<Exclude<AgentName, 'fake'>, string> = {
  codex: 'npm install -g @openai/codex',
  claude: 'npm install -g @anthropic-ai/claude-code',
  gemini: 'npm install -g @google/gemini-cli',
  opencode: 'npm install -g opencode-ai',
};

async function cliVersion(
  command: string,
  cwd: string,
): Promise<{ ok: true; version: string } | { ok: false; why: string }> {
  const r = await execa(command, ['--version'], { cwd, reject: false, stdin: 'ignore', timeout: 15_000 });
  if (r.failed && r.exitCode === undefined) {
    return { ok: false, why: r.timedOut ? 'did not answer `--version` within 15 s' : 'not found' };
  }
  if (r.exitCode !== 0)
    return {
      ok: false,
      why: `\`${command} --version\` exited ${r.exitCode}: ${String(r.stderr || r.stdout).split('\n')[0]}`,
    };
  return { ok: true, version: String(r.stdout).trim().split('\n')[0] ?? '' };
}

async function checkAgents(config: Config, cwd: string): Promise<Check[]> {
  const used = [...new Set([config.roles.planner, config.roles.reviewer])];
  const checks: Check[] = [];
  for (const name of used) {
    if (name === 'fake') {
      checks.push({ name: 'fake agent', ok: true, detail: 'scripted, no CLI needed' });
      continue;
    }
    const command = config.agents[name].command;
    const v = await cliVersion(command, cwd);
    const roles = (['planner', 'reviewer'] as const).filter((r) => config.roles[r] === name).join(' and ');
    checks.push(
      v.ok
        ? { name, ok: true, detail: `${command}: ${v.version} (${roles})` }
        : {
            name,
            ok: false,
            detail: `${command}: ${v.why} (needed as ${roles})`,
            fix: command === name ? INSTALL[name] : `${INSTALL[name]}, or fix [agents.${name}] command in the config`,
          },
    );
    if (name === 'gemini' && v.ok) checks.push(geminiModelCheck(process.env, config.safety.sandbox));
  }
  return checks;
}

async function checkWritable(dir: string): Promise<Check> {
  const probe = path.join(dir, `.doctor-${process.pid}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
    return { name: 'work dir', ok: true, detail: `${dir} is writable` };
  } catch (err) {
    return {
      name: 'work dir',
      ok: false,
      detail: `${dir} is not writable (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      fix: `chmod u+w ${JSON.stringify(dir)}`,
    };
  }
}

async function checkGitIdentity(repoRoot: string): Promise<Check> {
  const get = async (key: string) =>
    String((await execa('git', ['config', key], { cwd: repoRoot, reject: false, stdin: 'ignore' })).stdout).trim();
  const [name, email] = await Promise.all([get('user.name'), get('user.email')]);
  if (name && email) return { name: 'git identity', ok: true, detail: `${name} <${email}> (for step commits)` };
  return {
    name: 'git identity',
    ok: false,
    detail: 'no git user.name / user.email: step commits would fail',
    fix: 'git config --global user.name "Your Name" && git config --global user.email you@example.com',
  };
}

/** Step commits and rollbacks use `--pathspec-from-file` (git 2.26+). */
export function gitVersionCheck(versionOutput: string): Check {
  const m = /git version (\d+)\.(\d+)/.exec(versionOutput);
  if (!m)
    return {
      name: 'git version',
      ok: false,
      detail: `could not read the git version from "${versionOutput.trim()}"`,
      fix: 'install git 2.26 or newer',
    };
  const [major, minor] = [Number(m[1]), Number(m[2])];
  const ok = major > 2 || (major === 2 && minor >= 26);
  return ok
    ? { name: 'git version', ok: true, detail: `${major}.${minor}` }
    : {
        name: 'git version',
        ok: false,
        detail: `${major}.${minor} is too old: step commits need git 2.26 or newer`,
        fix: 'upgrade git (e.g. `sudo apt install git`, `brew install git`)',
      };
}

async function checkGitVersion(): Promise<Check> {
  return gitVersionCheck(String((await execa('git', ['--version'], { reject: false, stdin: 'ignore' })).stdout));
}

/** `[safety] sandbox`: on and working, on but missing (the fix), or off by choice (said plainly). */
export async function checkConfinementSetup(
  config: Config,
  probe: () => Promise<Confinement> = probeConfinement,
): Promise<Check> {
  const name = 'confinement';
  if (config.safety.sandbox === 'off')
    return {
      name,
      ok: true,
      detail: `OFF (${SANDBOX_OFF_HINT}): agents' write turns and the test command run unconfined`,
    };
  const c = await probe();
  if (c.available)
    return { name, ok: true, detail: 'bubblewrap and socat work: write turns and the test command run confined' };
  return {
    name,
    ok: false,
    detail: `${c.reason}: no write turn can start`,
    fix: `${CONFINEMENT_INSTALL_HINT} (Debian/Ubuntu), or set ${SANDBOX_OFF_HINT} in .agent-collab/config.toml`,
  };
}

export async function runChecks(
  cwd: string,
  homeDir?: string,
  probe: () => Promise<Confinement> = probeConfinement,
): Promise<Check[]> {
  let repoRoot: string;
  try {
    repoRoot = await findRepoRoot(cwd);
  } catch (err) {
    return [
      { name: 'git repository', ok: false, detail: err instanceof Error ? err.message : String(err), fix: 'git init' },
    ];
  }
  const checks: Check[] = [{ name: 'git repository', ok: true, detail: repoRoot }, await checkGitVersion()];
  let config: Config;
  try {
    const loaded = loadConfig({ repoRoot, homeDir });
    config = loaded.config;
    checks.push({
      name: 'config',
      ok: true,
      detail: loaded.sources.length ? `valid (${loaded.sources.join(', ')})` : 'built-in defaults (no config file)',
    });
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    checks.push({
      name: 'config',
      ok: false,
      detail: err.message,
      fix: 'edit the file named above (see config.toml in the package for every key and its default)',
    });
    return checks;
  }
  let paths;
  try {
    paths = resolvePaths(repoRoot, config);
    checkPathsStayInRepo(paths, config);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    checks.push({ name: 'config', ok: false, detail: err.message, fix: 'point [paths] inside the repo' });
    return checks;
  }
  checks.push(await checkWritable(paths.workdir));
  checks.push(await checkGitIdentity(repoRoot));
  checks.push(await checkConfinementSetup(config, probe));
  checks.push(...(await checkAgents(config, repoRoot)));
  const opencode = opencodeCheck(config);
  if (opencode !== null) checks.push(opencode);
  return checks;
}

export async function runDoctor(opts: {
  cwd: string;
  out?: Writable;
  homeDir?: string;
  probe?: () => Promise<Confinement>;
}): Promise<number> {
  const stdout = opts.out ?? process.stdout;
  // What doctor prints is pasted into bug reports: a CLI's error line, a base URL, redacted like every other output.
  const redactor = createRedactor(secretEnvValues(process.env));
  const out = { write: (text: string) => stdout.write(redactor.text(text)) };
  const checks = await runChecks(opts.cwd, opts.homeDir, opts.probe);
  for (const c of checks) {
    out.write(`${c.ok ? 'ok     ' : 'PROBLEM'} ${c.name}: ${c.detail}\n`);
    if (!c.ok && c.fix) out.write(`        fix: ${c.fix}\n`);
  }
  const problems = checks.filter((c) => !c.ok).length;
  out.write(problems ? `${problems} problem(s) found.\n` : 'Everything agent-collab needs is in place.\n');
  return problems ? 1 : 0;
}
