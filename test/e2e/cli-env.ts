/**
 * Per-test isolated environments for running the real `claude` and `codex` CLIs against the scripted LLM server:
 * own HOME, CODEX_HOME (with a local-provider config.toml), XDG_* and TMPDIR, the server's URL and a dummy key,
 * no inherited credentials, and the e2e cache's bin dir first on PATH.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface CliEnvOptions {
  /** The scripted server's base URL (`http://127.0.0.1:PORT`). */
  serverUrl: string;
  /** Directory holding `claude` and `codex` (the e2e cache's node_modules/.bin); put first on PATH. */
  binDir: string;
  /** codex model slug (default `gpt-5.5`: with it codex offers `exec_command` and `apply_patch`). */
  codexModel?: string;
  /** Extra TOML appended to `$CODEX_HOME/config.toml` (top-level keys must come before any table: use `codexTopLevel`). */
  codexConfigExtra?: string;
  /** Extra top-level TOML keys placed at the top of `$CODEX_HOME/config.toml`. */
  codexTopLevel?: string;
  /** Extra / overriding environment variables (undefined deletes). */
  env?: Record<string, string | undefined>;
  /** Prefix of the temp root dir name. */
  prefix?: string;
  /** Where the root dir is made (default the OS temp dir; the containment tests keep it out of any temp dir). */
  parentDir?: string;
}

export interface CliEnv {
  /** Temp root holding everything below (removed by cleanup). */
  root: string;
  home: string;
  codexHome: string;
  tmpDir: string;
  /** The environment to spawn the CLIs with. */
  env: NodeJS.ProcessEnv;
  /** Writes `$CODEX_HOME/config.toml` again (e.g. after the server moved). */
  writeCodexConfig(serverUrl: string): void;
  /** A fresh git repo (one commit) under root; returns its path. */
  makeRepo(name?: string): string;
  cleanup(): void;
}

/** Variables removed from the inherited environment (credentials, nesting markers, provider overrides). */
const DROP_PREFIXES = ['ANTHROPIC_', 'CLAUDE_', 'CODEX_', 'OPENAI_', 'GEMINI_', 'GOOGLE_'];
const DROP_EXACT = [
  'CLAUDECODE',
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'ANTHROPIC_AUTH_TOKEN',
  'XDG_RUNTIME_DIR',
];

export const TEST_API_KEY = 'e2e-test-key';

export function codexConfigToml(
  serverUrl: string,
  opts: Pick<CliEnvOptions, 'codexModel' | 'codexConfigExtra' | 'codexTopLevel'> = {},
): string {
  return [
    `model = "${opts.codexModel ?? 'gpt-5.5'}"`,
    'model_provider = "local"',
    ...(opts.codexTopLevel !== undefined ? [opts.codexTopLevel] : []),
    '',
    '[model_providers.local]',
    'name = "local"',
    `base_url = "${serverUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "LOCAL_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    ...(opts.codexConfigExtra !== undefined ? [opts.codexConfigExtra, ''] : []),
  ].join('\n');
}

/** The model opencode uses in the e2e tests: provider `local` of opencodeConfigJson. */
export const OPENCODE_MODEL = 'local/m1';

/**
 * opencode's global config: a provider `local` over the bundled `@ai-sdk/anthropic` (nothing fetched from npm,
 * measured on 1.18.33) pointed at the scripted server's Anthropic Messages route.
 */
export function opencodeConfigJson(serverUrl: string): string {
  const local = {
    npm: '@ai-sdk/anthropic',
    name: 'local',
    options: { baseURL: `${serverUrl}/v1`, apiKey: TEST_API_KEY },
  };
  return JSON.stringify({ provider: { local: { ...local, models: { m1: { name: 'm1' } } } }, model: OPENCODE_MODEL });
}

function writeOpencodeConfig(configHome: string, serverUrl: string): void {
  mkdirSync(path.join(configHome, 'opencode'), { recursive: true });
  writeFileSync(path.join(configHome, 'opencode', 'opencode.json'), opencodeConfigJson(serverUrl));
}

export function makeCliEnv(opts: CliEnvOptions): CliEnv {
  if (opts.parentDir !== undefined) mkdirSync(opts.parentDir, { recursive: true });
  const root = mkdtempSync(path.join(opts.parentDir ?? os.tmpdir(), opts.prefix ?? 'ac-e2e-'));
  const home = path.join(root, 'home');
  const codexHome = path.join(home, '.codex');
  const tmpDir = path.join(root, 'tmp');
  const xdg = {
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
  };
  for (const d of [home, codexHome, tmpDir, ...Object.values(xdg)]) mkdirSync(d, { recursive: true });

  writeOpencodeConfig(xdg.XDG_CONFIG_HOME, opts.serverUrl);
  const writeCodexConfig = (serverUrl: string) =>
    writeFileSync(path.join(codexHome, 'config.toml'), codexConfigToml(serverUrl, opts));
  writeCodexConfig(opts.serverUrl);

  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (DROP_EXACT.includes(k) || DROP_PREFIXES.some((p) => k.startsWith(p))) continue;
    env[k] = v;
  }
  Object.assign(env, xdg, {
    HOME: home,
    USERPROFILE: home,
    CODEX_HOME: codexHome,
    TMPDIR: tmpDir,
    PATH: [opts.binDir, process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'].join(path.delimiter),
    // claude
    ANTHROPIC_BASE_URL: opts.serverUrl,
    ANTHROPIC_API_KEY: TEST_API_KEY,
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // codex (env_key of the local provider)
    LOCAL_KEY: TEST_API_KEY,
    // gemini (llm-server-gemini.ts)
    GEMINI_API_KEY: TEST_API_KEY,
    GOOGLE_GEMINI_BASE_URL: opts.serverUrl,
    NO_COLOR: '1',
    // opencode (its provider is in $XDG_CONFIG_HOME/opencode/opencode.json): no models.dev fetch
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    // git identity for repos made in the test home
    GIT_AUTHOR_NAME: 'e2e',
    GIT_AUTHOR_EMAIL: 'e2e@example.invalid',
    GIT_COMMITTER_NAME: 'e2e',
    GIT_COMMITTER_EMAIL: 'e2e@example.invalid',
    GIT_CONFIG_NOSYSTEM: '1',
  });
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }

  let repoCount = 0;
  return {
    root,
    home,
    codexHome,
    tmpDir,
    env,
    writeCodexConfig,
    makeRepo(name?: string) {
      repoCount += 1;
      const dir = path.join(root, name ?? `repo${repoCount}`);
      mkdirSync(dir, { recursive: true });
      const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, stdio: 'pipe' });
      git('init', '-q', '-b', 'main');
      git('config', 'commit.gpgsign', 'false');
      writeFileSync(path.join(dir, 'README.md'), '# e2e\n');
      git('add', '-A');
      git('commit', '-q', '-m', 'initial');
      return dir;
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
