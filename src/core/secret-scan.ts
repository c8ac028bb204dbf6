// Finds secrets a step is about to commit: known token formats and hard-coded credentials on added lines of a
// `git diff` patch, and files that should never be committed (.env, private keys, certificates).
import type { SecretFinding } from './types.js';
import { parsePatch } from './patch-lines.js';

interface TokenRule {
  kind: string;
  re: RegExp;
  /** The captured token passes this check (default: it is not a placeholder). */
  accept?: (token: string) => boolean;
}

const notPlaceholder = (token: string): boolean => !looksLikePlaceholder(token);

/** Known formats; each regex's first group (or whole match) is the token. All bounded: no quadratic backtracking. */
const TOKEN_RULES: TokenRule[] = [
  { kind: 'private key', re: /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/g, accept: () => true },
  { kind: 'AWS access key', re: /(?<![A-Za-z0-9])((?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})(?![A-Za-z0-9])/g },
  {
    kind: 'AWS secret key',
    re: /aws[A-Za-z0-9_.-]{0,30}?(?:secret|sk)[A-Za-z0-9_.-]{0,20}["']?\s*(?::=|=>|=|:)\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    accept: (t) => notPlaceholder(t) && entropy(t) >= 3.5,
  },
  { kind: 'GitHub token', re: /(?<![A-Za-z0-9_])((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255})(?![A-Za-z0-9_])/g },
  { kind: 'GitHub token', re: /(?<![A-Za-z0-9_])(github_pat_[A-Za-z0-9_]{22,255})/g },
  { kind: 'Slack token', re: /(?<![A-Za-z0-9])(xox[baprs]-[A-Za-z0-9-]{10,255})/g },
  { kind: 'Stripe live key', re: /(?<![A-Za-z0-9])((?:sk|rk)_live_[A-Za-z0-9]{16,255})/g },
  { kind: 'Google API key', re: /(?<![A-Za-z0-9_-])(AIza[0-9A-Za-z_-]{35})(?![A-Za-z0-9_-])/g },
  {
    kind: 'Anthropic API key',
    re: /(?<![A-Za-z0-9_-])(sk-ant-[A-Za-z0-9_-]{20,255})/g,
    accept: (t) => notPlaceholder(t) && hasLetterAndDigit(t.slice(7)),
  },
  {
    kind: 'OpenAI API key',
    re: /(?<![A-Za-z0-9_-])(sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255})/g,
    accept: (t) => notPlaceholder(t) && hasLetterAndDigit(t) && entropy(t) >= 3.5,
  },
];

/** `password = "…"`, `"api_key": '…'`, `SECRET := "…"`: a credential-like name assigned a quoted literal. */
const ASSIGNMENT =
  /(?<![A-Za-z0-9])[A-Za-z0-9_.-]{0,40}?(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|client[_-]?secret)["']?\s*(?::=|=>|=|:)\s*(["'`])([^"'`\s]{1,500})\1/gi;

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

function looksLikePlaceholder(value: string): boolean {
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

/** A hard-coded value that looks random: long enough, mixed, not a word, identifier, path, URL or placeholder. */
function looksLikeRandomSecret(value: string): boolean {
  if (value.length < 10) return false;
  if (looksLikePlaceholder(value)) return false;
  if (/^[A-Za-z]+(?:[_.-][A-Za-z0-9]+)*$/.test(value)) return false; // words and identifiers: refresh_token, MY_TOKEN_2
  if (/^(?:\.{0,2}\/|~\/|[a-z][a-z0-9+.-]*:\/\/[^@]*$)/i.test(value)) return false; // paths; URLs without credentials
  if (
    /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)+$/i.test(value) &&
    /\.(?:json|ya?ml|toml|txt|pem|key|env|ini|cfg|conf)$/i.test(value)
  )
    return false;
  return charClasses(value) >= 2 && entropy(value) >= 3.0;
}

/** File names that hold secrets by nature; `.env.example`-style templates are fine. */
function secretFileKind(file: string): string | null {
  const base = file.slice(file.lastIndexOf('/') + 1);
  if (base === '.env' || (base.startsWith('.env.') && !/^\.env\.(?:example|sample|template|dist)$/i.test(base)))
    return '.env file';
  if (/^id_(?:rsa|dsa|ecdsa|ed25519)$/.test(base)) return 'SSH private key file';
  if (/\.pem$/i.test(base)) return 'PEM key or certificate file';
  if (/\.(?:p12|pfx)$/i.test(base)) return 'PKCS#12 key store file';
  return null;
}

/** Secrets on one added line; at most one finding per kind. A line with a known token skips the generic check. */
export function scanLine(text: string): string[] {
  const kinds: string[] = [];
  for (const rule of TOKEN_RULES) {
    if (kinds.includes(rule.kind)) continue;
    const accept = rule.accept ?? notPlaceholder;
    for (const m of text.matchAll(rule.re)) {
      if (accept(m[1] ?? m[0])) {
        kinds.push(rule.kind);
        break;
      }
    }
  }
  if (kinds.length > 0) return kinds;
  for (const m of text.matchAll(ASSIGNMENT)) {
    if (looksLikeRandomSecret(m[2] ?? '')) return ['hard-coded secret'];
  }
  return kinds;
}

/**
 * Secrets in a `git diff` patch: per added line (`line` = its number in the new file), and per added or renamed-to
 * file whose name says it holds secrets (`line` = 0: the file itself).
 */
export function scanDiff(patchText: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const file of parsePatch(patchText)) {
    if (file.added) {
      const kind = secretFileKind(file.path);
      if (kind) findings.push({ file: file.path, line: 0, kind });
    }
    for (const line of file.addedLines) {
      for (const kind of scanLine(line.text)) findings.push({ file: file.path, line: line.n, kind });
    }
  }
  return findings;
}
