import { describe, expect, it } from 'vitest';
import {
  COMMIT_MESSAGE,
  binaryFiles,
  scanBinary,
  scanDiff,
  scanLine,
  scanMessage,
} from '../../../src/core/secret-scan.js';

// Built from pieces so this file itself does not look like it holds secrets.
const GH = `ghp_${'k3Jd9Qw2Lm'.repeat(3)}Zx81Pq`;
const AWS_ID = `AKIA${'Q3ZL7WXN4RT2MB6K'}`;
const AWS_SK_VALUE = 'h7Kq/2Lm9Zx+4Rt8Wn3B' + 'v6Yc1Pd5Gf0Js7Ha2QeU';
const OPENAI = `sk-proj-${'A1b2C3d4E5f6G7h8'.repeat(2)}`;
const ANTHROPIC = `sk-ant-api03-${'Zq9Xw8Vu7Ts6Rq5P'.repeat(2)}`;

const hits: Array<[string, string]> = [
  ['-----BEGIN RSA PRIVATE' + ' KEY-----', 'private key'],
  ['-----BEGIN OPENSSH PRIVATE' + ' KEY-----', 'private key'],
  ['-----BEGIN PRIVATE' + ' KEY-----', 'private key'],
  ['-----BEGIN PGP PRIVATE' + ' KEY BLOCK-----', 'private key'],
  [`aws_access_key_id = ${AWS_ID}`, 'AWS access key'],
  [`const id = "ASIA${'Z7Y6X5W4V3U2T1S9'}";`, 'AWS access key'],
  [`aws_secret_access_key = ${AWS_SK_VALUE}`, 'AWS secret key'],
  [`AWS_SECRET_ACCESS_KEY: "${AWS_SK_VALUE}"`, 'AWS secret key'],
  [`token = "${GH}"`, 'GitHub token'],
  [`curl -H "Authorization: token gho_${'p0O9i8U7y6'.repeat(3)}T5r4E3"`, 'GitHub token'],
  [`GITHUB_PAT=github_pat_11ABCDEFG0${'q1W2e3R4t5'.repeat(6)}`, 'GitHub token'],
  [`slack: xoxb-${'123456789012'}-${'abcDEF123ghi'}`, 'Slack token'],
  [`stripe.api_key = "sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}"`, 'Stripe live key'],
  [`key=AIza${'SyD3k9Xw2Lm7Qr5Tz8Vb1Nc4Hj6Gf0Pe2Ab'}`, 'Google API key'],
  [`OPENAI_API_KEY=${OPENAI}`, 'OpenAI API key'],
  [`client = OpenAI(api_key="sk-${'Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6Kl9No2Qr5'}")`, 'OpenAI API key'],
  [`ANTHROPIC_API_KEY=${ANTHROPIC}`, 'Anthropic API key'],
  ['password = "9fK2' + '#xLq7!vB3zR8"', 'hard-coded secret'],
  ['"client_secret": "f83k' + 'd92mdk3l0apq9z7x"', 'hard-coded secret'],
  ["DB_PASSWORD: 'Tr0u" + "b4dor&3xyzzy'", 'hard-coded secret'],
  ['const apiKey = `a8f3' + 'k2l9x0q1z7m4n6b5`;', 'hard-coded secret'],
  ['$token := "9f86' + 'd081884c7d659a2feaa0c55ad015"', 'hard-coded secret'],
  // Unquoted values, YAML and JSON keys:
  ['DB_PASSWORD=hun' + 'ter2xyz', 'hard-coded secret'],
  ['export STRIPE_SECRET_KEY=a8f3' + 'k2l9x0q1z7m4n6b5', 'hard-coded secret'],
  ['  password: s3cr' + '3tPass!', 'hard-coded secret'],
  ['db: { "api_key": "a8f3' + 'k2l9x0q1z7m4n6b5" }', 'hard-coded secret'],
  ['SECRET_KEY: 9f86' + 'd081884c7d659a2f', 'hard-coded secret'],
  // A known token, base64-encoded (as in a Kubernetes Secret or `echo … | base64`):
  [`github: ${btoa(GH)}`, 'GitHub token (base64)'],
  [`data: ${btoa(`key=${AWS_ID}`)}`, 'AWS access key (base64)'],
  [`auth = "${JWT_TOKEN()}"`, 'JSON Web Token'],
];

function JWT_TOKEN(): string {
  return `eyJ${'hbGciOiJIUzI1NiJ9'}.eyJ${'zdWIiOiIxMjM0NTY3ODkwIn0'}.${'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'}`;
}

const nearMisses: string[] = [
  'token = os.environ["GITHUB_TOKEN"]',
  'password: ""',
  'password = os.getenv("DB_PASSWORD")',
  'api_key = "xxxxxxxxxxxxxxxxxxxx"',
  'api_key = "<your-key>"',
  'password = "changeme"',
  'secret = "${SECRET_FROM_ENV}"',
  'token: "{{ vault_token }}"',
  'OPENAI_API_KEY=sk-your-key-here',
  `token = "ghp_${'x'.repeat(36)}"`,
  'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
  'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'token_type = "bearer"',
  'max_tokens = 4096',
  'tokenizer = "bert-base-uncased-v2"',
  'token = "refresh_token"',
  'SECRET_NAME = "MY_APP_DB_SECRET"',
  'password_file = "/run/secrets/db_password"',
  'token_url = "https://auth.example.org/oauth/token"',
  'if (password == "abc123def456") {',
  'secret_path: "./config/secrets.yaml"',
  'const task-management-sidebar = 1;',
  'import { KeyboardEvent } from "react"; // sk-learn-compatible estimator wrapper',
  '-----BEGIN PUBLIC KEY-----',
  '-----BEGIN CERTIFICATE-----',
  'pwd = "hunter2"',
  // Unquoted look-alikes: references, types, code, placeholders, empties.
  'DB_PASSWORD=${DB_PASSWORD}',
  'DB_PASSWORD=',
  'password: changeme',
  'API_KEY=<your-key>',
  'SECRET_KEY=xxx',
  'password: string;',
  'password: process.env.DB_PASSWORD',
  'private_key: Optional[str] = None',
  'GITHUB_TOKEN=$(gh auth token)',
  'token: {{ .Values.token }}',
  'sort_key: created_at',
  `image: ${btoa('just some ordinary text, nothing secret here')}`,
];

describe('secret scan: one added line', () => {
  it.each(hits)('finds %s as a %s', (line, kind) => {
    expect(scanLine(line)).toEqual([kind]);
  });

  it.each(nearMisses)('lets %s pass', (line) => {
    expect(scanLine(line)).toEqual([]);
  });

  it('reports each kind once per line, however many tokens it has', () => {
    expect(scanLine(`a=${GH} b=${GH} c=${AWS_ID}`)).toEqual(['AWS access key', 'GitHub token']);
  });
});

function newFile(file: string, lines: string[]): string {
  return [
    `diff --git a/${file} b/${file}`,
    'new file mode 100644',
    'index 0000000..1111111',
    '--- /dev/null',
    `+++ b/${file}`,
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((l) => `+${l}`),
  ].join('\n');
}

describe('secret scan: a git diff', () => {
  it('gives the file and the line number in the new file', () => {
    const patch = [
      'diff --git a/src/app.ts b/src/app.ts',
      'index 1111111..2222222 100644',
      '--- a/src/app.ts',
      '+++ b/src/app.ts',
      '@@ -10,4 +10,5 @@ export function main() {',
      ' const a = 1;',
      `-const old = "${GH}";`,
      ' const b = 2;',
      '+const c = 3;',
      `+const token = "${GH}";`,
      ' const d = 4;',
      '@@ -40,2 +41,2 @@',
      ' x',
      `+${ANTHROPIC}`,
      `-y`,
    ].join('\n');
    expect(scanDiff(patch)).toEqual([
      { file: 'src/app.ts', line: 13, kind: 'GitHub token' },
      { file: 'src/app.ts', line: 42, kind: 'Anthropic API key' },
    ]);
  });

  it('ignores removed and context lines', () => {
    const patch = ['diff --git a/k b/k', '--- a/k', '+++ b/k', '@@ -1,2 +1,1 @@', `-${GH}`, ` ${AWS_ID}`].join('\n');
    expect(scanDiff(patch)).toEqual([]);
  });

  it.each([
    ['.env', '.env file'],
    ['config/.env.production', '.env file'],
    ['.env.local', '.env file'],
    ['deploy/id_rsa', 'SSH private key file'],
    ['certs/server.pem', 'PEM key or certificate file'],
    ['store.p12', 'PKCS#12 key store file'],
  ])('flags an added %s', (file, kind) => {
    expect(scanDiff(newFile(file, ['A=1']))).toEqual([{ file, line: 0, kind }]);
  });

  it.each(['.env.example', '.env.sample', '.env.template', 'id_rsa.pub', 'docs/env.md', 'environment.ts'])(
    'lets an added %s pass',
    (file) => {
      expect(scanDiff(newFile(file, ['A=1']))).toEqual([]);
    },
  );

  it('flags a file renamed to .env, but not an edit of an existing .env', () => {
    const renamed = [
      'diff --git a/env.txt b/.env',
      'similarity index 100%',
      'rename from env.txt',
      'rename to .env',
    ].join('\n');
    expect(scanDiff(renamed)).toEqual([{ file: '.env', line: 0, kind: '.env file' }]);
    const edited = ['diff --git a/.env b/.env', '--- a/.env', '+++ b/.env', '@@ -1 +1 @@', '-A=1', '+A=2'].join('\n');
    expect(scanDiff(edited)).toEqual([]);
  });

  it('flags an added binary key store by name without reading its data', () => {
    const patch = [
      'diff --git a/keys/app.p12 b/keys/app.p12',
      'new file mode 100644',
      'index 0000000..3333333',
      'GIT binary patch',
      'literal 10',
      'RcmZQzWMXDwW@2Ui00$5N0RR91',
      '',
      'literal 0',
      'HcmV?d00001',
      '',
    ].join('\n');
    expect(scanDiff(patch)).toEqual([{ file: 'keys/app.p12', line: 0, kind: 'PKCS#12 key store file' }]);
  });

  it('reads quoted file names (spaces, non-ASCII, tabs)', () => {
    const patch = [
      'diff --git "a/caf\\303\\251 menu/\\tsecret.pem" "b/caf\\303\\251 menu/\\tsecret.pem"',
      'new file mode 100644',
      '--- /dev/null',
      '+++ "b/caf\\303\\251 menu/\\tsecret.pem"',
      '@@ -0,0 +1 @@',
      '+-----BEGIN EC PRIVATE' + ' KEY-----',
    ].join('\n');
    expect(scanDiff(patch)).toEqual([
      { file: 'café menu/\tsecret.pem', line: 0, kind: 'PEM key or certificate file' },
      { file: 'café menu/\tsecret.pem', line: 1, kind: 'private key' },
    ]);
  });

  it('an added line that looks like a diff header is still an added line', () => {
    const patch = newFile('notes.md', ['++ b/whatever', `diff --git a/x b/x`, `key: ${AWS_ID}`]);
    expect(scanDiff(patch)).toEqual([{ file: 'notes.md', line: 3, kind: 'AWS access key' }]);
  });

  it('scans a huge minified line to the end without backtracking (a pattern that did would hang here)', () => {
    const line = `var a="${'ab-_.'.repeat(200_000)}";`;
    expect(scanDiff(newFile('dist/app.min.js', [line]))).toEqual([]);
  });
});

describe('secret scan: what the earlier scan let through', () => {
  it('reads a value continued over added lines with a backslash as one value', () => {
    const half = GH.slice(0, 20);
    const patch = newFile('deploy.sh', ['#!/bin/sh', `export GH_TOKEN=${half}\\`, `  ${GH.slice(20)}`, 'echo ok']);
    expect(scanDiff(patch)).toEqual([{ file: 'deploy.sh', line: 2, kind: 'GitHub token' }]);
  });

  it('flags the exact value of a secret variable of agent-collab, named, wherever it is added', () => {
    const known = [{ name: 'MY_SERVICE_TOKEN', value: 'q8Zr2Lw5Tn0Vx' }];
    expect(scanDiff(newFile('conf/app.ini', ['[svc]', 'value = q8Zr2Lw5Tn0Vx']), known)).toEqual([
      { file: 'conf/app.ini', line: 2, kind: 'value of $MY_SERVICE_TOKEN' },
    ]);
  });

  it('flags a token in the commit message', () => {
    expect(scanMessage(`Add the client (token ${GH})`)).toEqual([
      { file: COMMIT_MESSAGE, line: 1, kind: 'GitHub token' },
    ]);
    expect(scanMessage('Add the GitHub client; read the token from GITHUB_TOKEN')).toEqual([]);
  });

  it('names the binary files of a patch with their new blob, and finds tokens in their bytes', () => {
    const blob = 'a'.repeat(40);
    const patch = [
      'diff --git a/img.bin b/img.bin',
      'new file mode 100644',
      `index 0000000000000000000000000000000000000000..${blob}`,
      'GIT binary patch',
      'literal 10',
      'RcmZQzWMXDwW@2Ui00$5N0RR91',
      '',
      'diff --git a/old.bin b/old.bin',
      'deleted file mode 100644',
      `index ${'b'.repeat(40)}..0000000000000000000000000000000000000000`,
      'Binary files a/old.bin and /dev/null differ',
    ].join('\n');
    expect(binaryFiles(patch)).toEqual([{ path: 'img.bin', blob }]);
    const bytes = `\u0000\u0001\ufffd${AWS_ID}\u0000\u00ff${GH}\u0007`;
    expect(scanBinary('img.bin', bytes)).toEqual([
      { file: 'img.bin', line: 0, kind: 'AWS access key' },
      { file: 'img.bin', line: 0, kind: 'GitHub token' },
    ]);
    expect(scanBinary('img.bin', '\u0000PNG\u0001ordinary bytes')).toEqual([]);
  });
});
