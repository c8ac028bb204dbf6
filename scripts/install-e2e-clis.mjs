#!/usr/bin/env node
// Installs the pinned real CLIs used by the end-to-end tests into a cache dir outside the repo, once.
//
//   node scripts/install-e2e-clis.mjs           install if needed; print the bin dir (one line on stdout)
//   node scripts/install-e2e-clis.mjs --check   only check; exit 1 if they are not installed
//
// Cache dir: $AGENT_COLLAB_E2E_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/agent-collab-e2e.
// Idempotent: when all pinned versions are installed and `claude --version` / `codex --version` work, it does
// nothing. Concurrent runs wait for each other (a lock dir in the cache). On failure: exit 1 with one line on stderr.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const PINS = {
  '@anthropic-ai/claude-code': '2.1.197',
  '@openai/codex': '0.169.0',
  // opencode-ai: no `engines`; its bin is a prebuilt binary from an optional dependency (~350 MB installed).
  'opencode-ai': '1.18.33',
  // gemini: ~100 MB, ~10 s (measured, 0.61.0; engines node >=20).
  '@google/gemini-cli': '0.61.0',
};
const BINS = {
  claude: '@anthropic-ai/claude-code',
  codex: '@openai/codex',
  opencode: 'opencode-ai',
  gemini: '@google/gemini-cli',
};
const LOCK_STALE_MS = 20 * 60_000;
const INSTALL_TIMEOUT_MS = 15 * 60_000;

export function cacheDir(env = process.env) {
  if (env.AGENT_COLLAB_E2E_CACHE) return path.resolve(env.AGENT_COLLAB_E2E_CACHE);
  const xdg = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(xdg, 'agent-collab-e2e');
}

/** Env for `--version` probes: no credentials, no update checks. */
function probeEnv() {
  const env = { ...process.env, DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1' };
  env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = '1';
  return env;
}

function installedVersion(dir, pkg) {
  try {
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', pkg, 'package.json'), 'utf8'));
    return typeof json.version === 'string' ? json.version : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves undefined when `<bin> --version` prints the pinned version, else a reason. */
function probe(binDir, bin) {
  const version = PINS[BINS[bin]];
  const file = path.join(binDir, bin);
  if (!fs.existsSync(file)) return Promise.resolve(`${bin} not found in ${binDir}`);
  return new Promise((resolve) => {
    execFile(file, ['--version'], { encoding: 'utf8', timeout: 30_000, env: probeEnv() }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') resolve(`${bin} --version failed: ${error.message}`);
      else if (error) resolve(`${bin} --version exited ${error.code}: ${oneLine(stderr || stdout)}`);
      else if (!stdout.includes(version)) resolve(`${bin} --version printed "${oneLine(stdout)}", expected ${version}`);
      else resolve(undefined);
    });
  });
}

/** undefined when everything is in place, else the first problem. */
export async function check(dir) {
  for (const [pkg, version] of Object.entries(PINS)) {
    const have = installedVersion(dir, pkg);
    if (have !== version) return have === undefined ? `${pkg} is not installed` : `${pkg} is ${have}, want ${version}`;
  }
  const binDir = path.join(dir, 'node_modules', '.bin');
  // All probes at once: each CLI takes seconds to start, and this runs before any e2e test.
  const problems = await Promise.all(Object.keys(BINS).map((bin) => probe(binDir, bin)));
  return problems.find((p) => p !== undefined);
}

function oneLine(s) {
  return String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

class Failure extends Error {}

function sleepMs(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** A lock dir holding the owner's pid; waits for another installer, takes over a stale lock. */
async function withLock(dir, fn) {
  const lock = path.join(dir, '.install.lock');
  const started = Date.now();
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw new Failure(`cannot create lock ${lock}: ${e.message}`);
      let stale = false;
      try {
        const st = fs.statSync(lock);
        const pid = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
        stale = Date.now() - st.mtimeMs > LOCK_STALE_MS || (pid > 0 && !pidAlive(pid));
      } catch {
        // pid file not written yet (owner just created the dir) or lock just released
        stale = false;
      }
      if (stale) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() - started > INSTALL_TIMEOUT_MS + 60_000)
        throw new Failure(`timed out waiting for another install (lock ${lock})`);
      sleepMs(500);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

const NETWORK_CODES = [
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENOTCONN',
];

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * Fails fast when the registry cannot be reached at all (npm itself retries for minutes). Skipped behind a proxy,
 * which node's fetch would not use.
 */
function preflight(specs) {
  const proxied = [
    'HTTPS_PROXY',
    'https_proxy',
    'HTTP_PROXY',
    'http_proxy',
    'npm_config_proxy',
    'npm_config_https_proxy',
  ].some((k) => process.env[k]);
  if (proxied) return;
  const reg = spawnSync(npm, ['config', 'get', 'registry'], {
    encoding: 'utf8',
    timeout: 30_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const registry = reg.status === 0 ? reg.stdout.trim() : '';
  if (!/^https?:\/\//.test(registry)) return;
  const probeJs =
    'fetch(process.argv[1],{method:"HEAD",signal:AbortSignal.timeout(8000)})' +
    '.then(()=>process.exit(0),(e)=>{const c=e?.cause;process.stderr.write(String(c?.code??c?.errors?.[0]?.code??c?.message??e?.message??e));process.exit(1)})';
  const r = spawnSync(process.execPath, ['-e', probeJs, registry], {
    encoding: 'utf8',
    timeout: 15_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0)
    throw new Failure(
      `no network: cannot reach the npm registry ${registry} (${oneLine(r.stderr) || 'timeout'}) to install ${specs.join(' ')}; ` +
        'connect and run `node scripts/install-e2e-clis.mjs`',
    );
}

function install(dir) {
  const specs = Object.entries(PINS).map(([pkg, v]) => `${pkg}@${v}`);
  const log = path.join(dir, 'install.log');
  preflight(specs);
  process.stderr.write(`agent-collab e2e: installing ${specs.join(' ')} into ${dir} (a few minutes; log: ${log})\n`);
  const r = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--prefix', dir, ...specs], {
    encoding: 'utf8',
    timeout: INSTALL_TIMEOUT_MS,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${r.stdout ?? ''}\n${r.stderr ?? ''}`;
  fs.writeFileSync(
    log,
    `$ npm install --no-audit --no-fund --prefix ${dir} ${specs.join(' ')}\n${output}\nstatus=${r.status} signal=${r.signal}\n`,
  );
  if (r.error) {
    if (r.error.code === 'ENOENT') throw new Failure('npm not found on PATH (needed to install the e2e CLIs)');
    throw new Failure(`npm install failed: ${r.error.message} (log: ${log})`);
  }
  if (r.status !== 0) {
    const code = NETWORK_CODES.find((c) => output.includes(c));
    if (code || /network|getaddrinfo|request to https?:\/\/\S+ failed/i.test(output))
      throw new Failure(
        `no network: npm could not reach the registry to install ${specs.join(' ')} (${code ?? 'network error'}); ` +
          `connect and run \`node scripts/install-e2e-clis.mjs\` (log: ${log})`,
      );
    const errLine = output.split('\n').find((l) => /npm (ERR!|error)/.test(l));
    throw new Failure(`npm install exited ${r.status}: ${oneLine(errLine ?? output.slice(-300))} (log: ${log})`);
  }
}

/** claude's postinstall links the native binary; run it again when `claude --version` does not work. */
async function fixClaude(dir) {
  const binDir = path.join(dir, 'node_modules', '.bin');
  if ((await probe(binDir, 'claude')) === undefined) return;
  const pkgDir = path.join(dir, 'node_modules', '@anthropic-ai', 'claude-code');
  const r = spawnSync(process.execPath, ['install.cjs'], {
    cwd: pkgDir,
    encoding: 'utf8',
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0)
    throw new Failure(`node install.cjs in ${pkgDir} exited ${r.status}: ${oneLine(r.stderr || r.stdout)}`);
}

export async function ensure({ checkOnly = false } = {}) {
  const dir = cacheDir();
  const binDir = path.join(dir, 'node_modules', '.bin');
  const first = await check(dir);
  if (first === undefined) return binDir;
  if (checkOnly) throw new Failure(`e2e CLIs not ready in ${dir}: ${first}; run \`node scripts/install-e2e-clis.mjs\``);
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new Failure(`cannot create cache dir ${dir}: ${e.message}`);
  }
  await withLock(dir, async () => {
    if ((await check(dir)) === undefined) return; // another process installed them while we waited
    const versionsOk = Object.entries(PINS).every(([pkg, v]) => installedVersion(dir, pkg) === v);
    let installed = false;
    if (!versionsOk) {
      install(dir);
      installed = true;
    }
    await fixClaude(dir);
    if (!installed && (await check(dir)) !== undefined) {
      install(dir); // right versions but a broken install (e.g. a missing native package): install again
      await fixClaude(dir);
    }
    const after = await check(dir);
    if (after !== undefined) throw new Failure(`installed, but ${after} (cache: ${dir}; delete it to reinstall)`);
  });
  return binDir;
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  try {
    process.stdout.write(`${await ensure({ checkOnly: process.argv.includes('--check') })}\n`);
  } catch (e) {
    process.stderr.write(`install-e2e-clis: ${e instanceof Failure ? e.message : oneLine(e?.stack ?? e)}\n`);
    process.exitCode = 1;
  }
}
