import { describe, expect, it } from 'vitest';
import { createRedactor, redactDeep, redactText, secretEnvValues } from '../../../src/core/redact.js';

// Every fake secret is built from pieces so this file itself holds nothing a secret scanner would flag.
const GH = `ghp_${'k3Jd9Qw2Lm'.repeat(3)}Zx81Pq`;
const GH_PAT = `github_pat_11ABCDEFG0${'q1W2e3R4t5'.repeat(6)}`;
const AWS_ID = `AKIA${'Q3ZL7WXN4RT2MB6K'}`;
const AWS_SECRET = `h7Kq/2Lm9Zx+4Rt8Wn3B${'v6Yc1Pd5Gf0Js7Ha2QeU'}`;
const OPENAI = `sk-proj-${'A1b2C3d4E5f6G7h8'.repeat(2)}`;
const ANTHROPIC = `sk-ant-api03-${'Zq9Xw8Vu7Ts6Rq5P'.repeat(2)}`;
const SLACK = `xoxb-${'123456789012'}-${'abcDEF123ghi'}`;
const STRIPE = `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`;
const GOOGLE = `AIza${'SyD3k9Xw2Lm7Qr5Tz8Vb1Nc4Hj6Gf0Pe2Ab'}`;
const JWT = `eyJ${'hbGciOiJIUzI1NiJ9'}.eyJ${'zdWIiOiIxMjM0NTY3ODkwIn0'}.${'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'}`;
const KEY_BODY = 'MIIEowIBAAKCAQEA7bq9Zx2Lm4Qw8Rt1Yc3Vb6Nh0Jk5Gf';
const PRIVATE_KEY = [`-----BEGIN RSA ${'PRIVATE'} KEY-----`, KEY_BODY, KEY_BODY, `-----END RSA ${'PRIVATE'} KEY-----`];

const tokens: Array<[string, string]> = [
  [GH, 'github-token'],
  [GH_PAT, 'github-token'],
  [AWS_ID, 'aws-access-key'],
  [OPENAI, 'openai-key'],
  [ANTHROPIC, 'anthropic-key'],
  [SLACK, 'slack-token'],
  [STRIPE, 'stripe-key'],
  [GOOGLE, 'google-api-key'],
  [JWT, 'jwt'],
];

describe('redactText: known token formats', () => {
  it.each(tokens)('hides %s as [REDACTED:%s], keeping the words around it', (token, kind) => {
    const out = redactText(`the agent printed ${token} here`);
    expect(out).toBe(`the agent printed [REDACTED:${kind}] here`);
  });

  it('hides a token right after an escaped newline inside JSON text, and the JSON still parses', () => {
    const json = JSON.stringify({ type: 'text', text: `line one\n${GH}\nline three "quoted"` });
    const out = redactText(json);
    expect(out).not.toContain(GH);
    expect(JSON.parse(out)).toEqual({ type: 'text', text: 'line one\n[REDACTED:github-token]\nline three "quoted"' });
  });

  it('hides an AWS secret key next to its name', () => {
    expect(redactText(`aws_secret_access_key = ${AWS_SECRET}`)).toBe(
      'aws_secret_access_key = [REDACTED:aws-secret-key]',
    );
  });

  it('hides a whole private-key block, header to footer, in plain text and in JSON text', () => {
    const text = `before\n${PRIVATE_KEY.join('\n')}\nafter`;
    expect(redactText(text)).toBe('before\n[REDACTED:private-key]\nafter');
    const json = JSON.stringify({ output: text });
    const out = redactText(json);
    expect(out).not.toContain(KEY_BODY);
    expect(JSON.parse(out)).toEqual({ output: 'before\n[REDACTED:private-key]\nafter' });
  });

  it('hides the body lines of a private key that comes line by line (a stream)', () => {
    const redact = createRedactor().lines();
    const out = [...PRIVATE_KEY, 'done: 3 tests passed'].map(redact);
    expect(out.join('\n')).not.toContain(KEY_BODY);
    expect(out.at(-1)).toBe('done: 3 tests passed');
  });
});

describe('redactText: credential assignments', () => {
  it.each([
    ['DB_PASSWORD=hun' + 'ter2xyz', 'DB_PASSWORD=[REDACTED:secret]'],
    ['export DB_PASSWORD="cor' + 'rect horse battery"', 'export DB_PASSWORD="[REDACTED:secret]"'],
    ['password: s3cr' + '3tPass!', 'password: [REDACTED:secret]'],
    ['"api_key": "a8f3' + 'k2l9x0q1z7m4n6b5"', '"api_key": "[REDACTED:secret]"'],
    ['MY_SERVICE_TOKEN=Zm9v' + 'YmFyYmF6cXV4MTIz', 'MY_SERVICE_TOKEN=[REDACTED:secret]'],
    ["client_secret: 'f83k" + "d92mdk3l0apq9z7x'", "client_secret: '[REDACTED:secret]'"],
  ])('%s → %s', (input, output) => {
    expect(redactText(input)).toBe(output);
  });

  it('hides a quoted password inside JSON text without breaking the JSON', () => {
    const json = JSON.stringify({ command: 'psql "password=Tr0u' + 'b4dor&3xyzzy host=db"' });
    const out = redactText(json);
    expect(out).not.toContain('Tr0ub4dor');
    expect(JSON.parse(out)).toEqual({ command: 'psql "password=[REDACTED:secret] host=db"' });
  });

  it.each([
    'password: ""',
    'DB_PASSWORD=${DB_PASSWORD}',
    'password = os.getenv("DB_PASSWORD")',
    'password: string;',
    'API_KEY=<your-key>',
    'SECRET_KEY=changeme',
    'token: xxxxxxxxxxxx',
    'max_tokens = 4096',
    'token_type = "bearer"',
    'password_file: /run/secrets/db',
    'if (password == "abc123def456") {',
    'sort_key = "created_at"',
    'GITHUB_TOKEN=$(gh auth token)',
    `token = "ghp_${'x'.repeat(36)}"`,
    'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
    'an ordinary sentence about keys, tokens and passwords',
    '-----BEGIN PUBLIC KEY-----',
  ])('leaves the look-alike %s as it is', (text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('known values from the environment', () => {
  const env = {
    MY_SERVICE_TOKEN: 'q8Zr2' + 'Lw5Tn0Vx',
    DB_PASSWORD: 'p4ss"with\\quote',
    HOME: '/root',
    PWD: '/work/repo',
    SSH_AUTH_SOCK: '/tmp/ssh-abc/agent.1',
    SHORT_TOKEN: 'abc',
    API_KEY_FILE: '/etc/key.pem',
    EXAMPLE_SECRET: 'changeme-please',
    TOKEN_LIMIT: '1000000000',
  };

  it('takes secret-looking names with real values, and nothing else', () => {
    expect(secretEnvValues(env).map((k) => k.name)).toEqual(['DB_PASSWORD', 'MY_SERVICE_TOKEN']);
  });

  it('hides the exact value wherever it is, in plain and in JSON text, named by its variable', () => {
    const known = secretEnvValues(env);
    expect(redactText('echo q8Zr2Lw5Tn0Vx done', known)).toBe('echo [REDACTED:MY_SERVICE_TOKEN] done');
    const json = JSON.stringify({ text: `pw ${env.DB_PASSWORD} and q8Zr2Lw5Tn0Vx` });
    const out = redactText(json, known);
    expect(out).not.toContain('q8Zr2Lw5Tn0Vx');
    expect(JSON.parse(out)).toEqual({ text: 'pw [REDACTED:DB_PASSWORD] and [REDACTED:MY_SERVICE_TOKEN]' });
  });
});

describe('redactDeep', () => {
  it('redacts every string of an object, keeps other values and the listed keys verbatim', () => {
    const value = {
      id: `call-${GH}`,
      text: `key ${GH}`,
      n: 3,
      ok: true,
      nested: [{ output: `AWS ${AWS_ID}` }, null],
      password: 'Zx9-' + 'qW2_eR7!tY',
    };
    expect(redactDeep(value, [], new Set(['id']))).toEqual({
      id: `call-${GH}`,
      text: 'key [REDACTED:github-token]',
      n: 3,
      ok: true,
      nested: [{ output: 'AWS [REDACTED:aws-access-key]' }, null],
      password: '[REDACTED:secret]',
    });
  });

  it('does not change the object it was given', () => {
    const value = { text: GH };
    redactDeep(value);
    expect(value.text).toBe(GH);
  });
});

describe('size', () => {
  it('redacts a 10 MB text with many near-misses to the end (a backtracking pattern would hang here)', () => {
    const chunk = `token=abc password: ${'-'.repeat(50)} sk-${'a'.repeat(30)} eyJ${'A'.repeat(40)} ${'ab-_.'.repeat(20)}\n`;
    const big = chunk.repeat(Math.ceil((10 * 1024 * 1024) / chunk.length)) + GH;
    const out = redactText(big);
    expect(out.endsWith('[REDACTED:github-token]')).toBe(true);
    expect(out.length).toBe(big.length - GH.length + '[REDACTED:github-token]'.length);
  });

  it('redacts a 10 MB single line of base64-like text with a private-key header in it', () => {
    const big = `-----BEGIN ${'PRIVATE'} KEY-----${'QUJD'.repeat(2_700_000)}`;
    expect(redactText(big).startsWith('[REDACTED:private-key]')).toBe(true);
  });
});
