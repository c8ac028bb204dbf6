// The secret formats agent-collab knows, shared by the redactor (what it writes and prints) and the pre-commit scan
// (what a step commits). Every regex is linear: bounded repetitions, no nested quantifiers over the same characters.

export interface TokenRule {
  /** Human name, shown in the scan's findings ("GitHub token"). */
  kind: string;
  /** Short name written in place of the secret: `[REDACTED:<tag>]`. */
  tag: string;
  /** The token is the match's first group, always at the end of the match (or the whole match). */
  re: RegExp;
  /** The token passes this check (default: it is not a placeholder). */
  accept?: (token: string) => boolean;
  /** The text can hold the token only if it contains one of these (a quick check before the regex). */
  hints: readonly string[];
  /** Only the redactor uses it (e.g. Stripe test keys: worth hiding in a log, not worth holding a commit). */
  redactOnly?: boolean;
}

/**
 * Not preceded by a letter or digit, or preceded by a JSON/C escape (`\n`, `\t`, `\r`): a token right after an
 * escaped newline inside a JSON string still starts a word.
 */
const START = String.raw`(?:(?<=\\[nrt])|(?<![A-Za-z0-9]))`;
const START_ = String.raw`(?:(?<=\\[nrt])|(?<![A-Za-z0-9_]))`;
const START_DASH = String.raw`(?:(?<=\\[nrt])|(?<![A-Za-z0-9_-]))`;

/** The text contains one of the rule's hints: only then is its regex run. */
export function mayHold(text: string, hints: readonly string[]): boolean {
  return hints.some((h) => text.includes(h));
}

const notPlaceholder = (token: string): boolean => !looksLikePlaceholder(token);

/** Rules of tokens that are a fixed prefix and a random body: [kind, tag, prefix, body]. */
function providerRules(specs: ReadonlyArray<readonly [string, string, string, string]>): TokenRule[] {
  return specs.map(([kind, tag, prefix, body]) => ({
    kind,
    hints: [prefix],
    tag,
    re: new RegExp(`${START_DASH}(${prefix}${body})(?![A-Za-z0-9_-])`, 'g'),
    accept: (t: string) => notPlaceholder(t) && hasLetterAndDigit(t.slice(prefix.length)),
  }));
}

/** Known formats. Order matters for the redactor: a more specific format before a more general one. */
export const TOKEN_RULES: readonly TokenRule[] = [
  {
    kind: 'AWS access key',
    hints: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    tag: 'aws-access-key',
    re: new RegExp(`${START}((?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})(?![A-Za-z0-9])`, 'g'),
  },
  {
    kind: 'AWS secret key',
    hints: ['aws', 'AWS', 'Aws'],
    tag: 'aws-secret-key',
    re: /aws[A-Za-z0-9_.-]{0,30}?(?:secret|sk)[A-Za-z0-9_.-]{0,20}\\?["']?\s*(?::=|=>|=|:)\s*\\?["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    accept: (t) => notPlaceholder(t) && entropy(t) >= 3.5,
  },
  {
    kind: 'GitHub token',
    hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    tag: 'github-token',
    re: new RegExp(`${START_}((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255})(?![A-Za-z0-9_])`, 'g'),
  },
  {
    kind: 'GitHub token',
    hints: ['github_pat_'],
    tag: 'github-token',
    re: new RegExp(`${START_}(github_pat_[A-Za-z0-9_]{22,255})`, 'g'),
  },
  {
    kind: 'Slack token',
    hints: ['xox'],
    tag: 'slack-token',
    re: new RegExp(`${START}(xox[baprse]-[A-Za-z0-9-]{10,255})`, 'g'),
  },
  {
    kind: 'Slack webhook',
    hints: ['hooks.slack.com'],
    tag: 'slack-webhook',
    re: /(hooks\.slack\.com\/services\/T[A-Z0-9]{6,12}\/B[A-Z0-9]{6,12}\/[A-Za-z0-9]{16,40})/g,
  },
  {
    kind: 'Stripe live key',
    hints: ['_live_'],
    tag: 'stripe-key',
    re: new RegExp(`${START}((?:sk|rk)_live_[A-Za-z0-9]{16,255})`, 'g'),
  },
  {
    kind: 'Stripe test key',
    hints: ['_test_'],
    tag: 'stripe-key',
    re: new RegExp(`${START}((?:sk|rk)_test_[A-Za-z0-9]{16,255})`, 'g'),
    redactOnly: true,
  },
  {
    kind: 'Google API key',
    hints: ['AIza'],
    tag: 'google-api-key',
    re: new RegExp(`${START_DASH}(AIza[0-9A-Za-z_-]{35})(?![A-Za-z0-9_-])`, 'g'),
  },
  {
    kind: 'Anthropic API key',
    hints: ['sk-ant-'],
    tag: 'anthropic-key',
    re: new RegExp(`${START_DASH}(sk-ant-[A-Za-z0-9_-]{20,255})`, 'g'),
    accept: (t) => notPlaceholder(t) && hasLetterAndDigit(t.slice(7)),
  },
  {
    kind: 'OpenAI API key',
    hints: ['sk-'],
    tag: 'openai-key',
    re: new RegExp(`${START_DASH}(sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255})`, 'g'),
    accept: (t) => notPlaceholder(t) && hasLetterAndDigit(t) && entropy(t) >= 3.5,
  },
  // Keys of providers the gemini and opencode CLIs use (opencode logs in to many).
  ...providerRules([
    ['Hugging Face token', 'huggingface-token', 'hf_', '[A-Za-z0-9]{30,255}'],
    ['Groq API key', 'groq-key', 'gsk_', '[A-Za-z0-9]{40,255}'],
    ['xAI API key', 'xai-key', 'xai-', '[A-Za-z0-9]{40,255}'],
    ['GitLab token', 'gitlab-token', 'glpat-', '[A-Za-z0-9_-]{20,255}'],
    ['npm token', 'npm-token', 'npm_', '[A-Za-z0-9]{36,255}'],
  ]),
  {
    kind: 'JSON Web Token',
    hints: ['eyJ'],
    tag: 'jwt',
    re: new RegExp(
      `${START_DASH}(eyJ[A-Za-z0-9_-]{10,4096}\\.eyJ[A-Za-z0-9_-]{10,8192}\\.[A-Za-z0-9_-]{10,4096})`,
      'g',
    ),
  },
  // Worth hiding in what agent-collab writes, too common in code (examples, local test databases) to hold a commit.
  {
    kind: 'Authorization header credential',
    hints: ['Bearer', 'bearer', 'BEARER', 'Basic', 'basic'],
    tag: 'bearer-token',
    re: new RegExp(`${START}(?:bearer|basic)[ \\t]{1,8}([A-Za-z0-9._~+/-]{16,4096}={0,2})(?![A-Za-z0-9._~+/=-])`, 'gi'),
    accept: (t) => notPlaceholder(t) && looksLikeRandomSecret(t),
    redactOnly: true,
  },
  {
    kind: 'password in a URL',
    hints: ['://'],
    tag: 'url-password',
    re: /[a-z][a-z0-9+.-]{0,20}:\/\/[^\s/:@'"\\]{1,256}:([^\s/@'"\\]{3,256})(?=@)/gi,
    redactOnly: true,
  },
];

/** A private-key header line; the scan flags it wherever it is added. */
export const PRIVATE_KEY_HEADER = /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/g;

/**
 * A whole private-key block for the redactor: header, body (base64, headers such as `Proc-Type:`, whitespace and
 * JSON's `\n` escapes, taken as pairs so an escape is never cut) and the footer when it comes within the bound.
 */
export const PRIVATE_KEY_BLOCK = new RegExp(
  String.raw`-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----` +
    String.raw`(?:(?:[A-Za-z0-9+/=\s:,.-]|\\[nrt]){0,16384}?-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----` +
    String.raw`|(?:[A-Za-z0-9+/=\s:,.-]|\\[nrt]){0,16384})`,
  'g',
);

/** Names whose value is a credential: `DB_PASSWORD`, `api_key`, `clientSecret`, `GITHUB_TOKEN`, `"apiKey"`. */
const SECRET_NAME = String.raw`(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|client[_-]?secret|_key)`;

/**
 * `NAME = value`, `NAME: value`, `"name": "value"`, `name := 'value'`, with the quotes JSON escapes (`\"`) too.
 * Groups: 1 the name, 2 the opening quote (or none), 3 the value. The value is at the end of the match.
 */
export const ASSIGNMENT = new RegExp(
  String.raw`(${SECRET_NAME})(?:\\?["'])?[ \t]*(?::=|=>|=|:)[ \t]*(?!=)(\\?["'\x60])?` +
    String.raw`((?<=["'\x60])[^"'\x60\\\r\n]{1,500}(?=\\?["'\x60])|(?<![\\"'\x60])[^\s"'\x60\\,;<>(){}\[\]]{1,500})`,
  'gi',
);

/** The text can hold an assignment only if one of these words is in it (a quick check before the regex). */
export const ASSIGNMENT_HINT = /pass|pwd|secret|token|key/i;

/** Names that mark a value as a password: any value that is not a placeholder or a reference counts. */
export function isPasswordName(name: string): boolean {
  return /^(?:password|passwd|passphrase)$/i.test(name);
}

/** Words that mark a value as an example, not a real secret. */
const PLACEHOLDER_WORDS = [
  'xxx',
  'your',
  'example',
  'changeme',
  'change_me',
  'change-me',
  'placeholder',
  'dummy',
  'redacted',
  'replace',
  'sample',
  'fake',
  'test',
  'todo',
  '***',
  '...',
];

export function looksLikePlaceholder(value: string): boolean {
  const v = value.toLowerCase();
  if (PLACEHOLDER_WORDS.some((w) => v.includes(w))) return true;
  if (/[<>{}$%]/.test(v)) return true; // <your-key>, ${VAR}, {{ var }}, %(var)s
  return /(.)\1{5,}/.test(v); // aaaaaa, 000000
}

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function hasLetterAndDigit(text: string): boolean {
  return /[A-Za-z]/.test(text) && /[0-9]/.test(text);
}

function charClasses(text: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(text)).length;
}

/** A part of an identifier-shaped value that is a random body: long, upper and lower case and digits, varied. */
function randomPart(part: string): boolean {
  return part.length >= 16 && /[a-z]/.test(part) && /[A-Z]/.test(part) && /[0-9]/.test(part) && entropy(part) >= 3.5;
}

/** A hard-coded value that looks random: long enough, mixed, not a word, identifier, path, URL or placeholder. */
export function looksLikeRandomSecret(value: string): boolean {
  if (value.length < 10) return false;
  if (looksLikePlaceholder(value)) return false;
  // Words and identifiers (refresh_token, MY_TOKEN_2) are not, unless a part is long and random (live_9fK2mZq8xYp3…).
  if (/^[A-Za-z]+(?:[_.-][A-Za-z0-9]+)*$/.test(value) && !value.split(/[_.-]/).some(randomPart)) return false;
  if (/^(?:\.{0,2}\/|~\/|[a-z][a-z0-9+.-]*:\/\/[^@]*$)/i.test(value)) return false; // paths; URLs without credentials
  if (
    /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)+$/i.test(value) &&
    /\.(?:json|ya?ml|toml|txt|pem|key|env|ini|cfg|conf)$/i.test(value)
  )
    return false;
  return charClasses(value) >= 2 && entropy(value) >= 3.0;
}

/** Type names and literals that follow `password:` in code without being a password. */
const NOT_A_PASSWORD = new Set([
  'str',
  'string',
  'bool',
  'boolean',
  'int',
  'number',
  'bytes',
  'optional',
  'secretstr',
  'none',
  'null',
  'nil',
  'true',
  'false',
  'undefined',
  'required',
  'any',
]);

/** What a password-named assignment may hold without being a password: placeholders, references, code. */
export function looksLikePassword(value: string): boolean {
  if (value.length < 6 || looksLikePlaceholder(value)) return false;
  if (NOT_A_PASSWORD.has(value.toLowerCase())) return false;
  if (/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(value)) return false; // config.db.password
  if (/^(?:\.{0,2}\/|~\/)/.test(value)) return false; // a path (password_file: /run/secrets/db)
  return !/^\d+$/.test(value);
}

/** The value of `name = value` is a credential: a random-looking value, or anything real after a password name. */
export function isSecretAssignment(name: string, value: string): boolean {
  return isPasswordName(name) ? looksLikePassword(value) : looksLikeRandomSecret(value);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes standard or URL-safe base64 to a Latin-1 string (one char per byte); stray characters end it. */
export function decodeBase64(text: string): string {
  let out = '';
  let bits = 0;
  let acc = 0;
  for (const ch of text) {
    const c = ch === '-' ? '+' : ch === '_' ? '/' : ch;
    const v = B64.indexOf(c);
    if (v < 0) break;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((acc >> bits) & 0xff);
      acc &= (1 << bits) - 1;
    }
  }
  return out;
}

/** Runs of base64 long enough to hold a token (the shortest known format encodes to 28 characters). */
export const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{28,4096}={0,2}/g;
