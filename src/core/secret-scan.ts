// Finds secrets a step is about to commit: known token formats, hard-coded credentials (quoted or not, in code,
// YAML, JSON, .env and shell), values continued over lines with `\`, base64 of a known token, the exact values of
// secret variables in agent-collab's environment — on added lines of a `git diff` patch, in the raw bytes of files
// git treats as binary, and in the commit message; and files that should never be committed (.env, keys).
import type { SecretFinding } from './types.js';
import type { KnownSecret } from './redact.js';
import { parsePatch, type PatchFile } from './patch-lines.js';
import {
  ASSIGNMENT,
  ASSIGNMENT_HINT,
  mayHold,
  BASE64_RUN,
  PRIVATE_KEY_HEADER,
  TOKEN_RULES,
  decodeBase64,
  isSecretAssignment,
  looksLikePlaceholder,
} from './secret-patterns.js';

/** The `file` of a finding in the commit message (line = the message's line). */
export const COMMIT_MESSAGE = '(commit message)';

const SCAN_RULES = TOKEN_RULES.filter((r) => !r.redactOnly);

/** Known token formats (and private-key headers) in `text`, each kind once. */
function tokenKinds(text: string): string[] {
  const kinds: string[] = [];
  if (text.includes('PRIVATE KEY')) {
    PRIVATE_KEY_HEADER.lastIndex = 0;
    if (PRIVATE_KEY_HEADER.test(text)) kinds.push('private key');
  }
  for (const rule of SCAN_RULES) {
    if (kinds.includes(rule.kind) || !mayHold(text, rule.hints)) continue;
    const accept = rule.accept ?? ((t: string) => !looksLikePlaceholder(t));
    for (const m of text.matchAll(rule.re)) {
      if (accept(m[1] ?? m[0])) {
        kinds.push(rule.kind);
        break;
      }
    }
  }
  return kinds;
}

function knownKinds(text: string, known: readonly KnownSecret[]): string[] {
  return known.filter((k) => text.includes(k.value)).map((k) => `value of $${k.name}`);
}

/** Known tokens encoded in base64 (`Z2hwX…` for `ghp_…`): the runs are decoded and looked at again. */
function base64Kinds(text: string): string[] {
  const kinds: string[] = [];
  for (const m of text.matchAll(BASE64_RUN)) {
    for (const kind of tokenKinds(decodeBase64(m[0]))) {
      const k = `${kind} (base64)`;
      if (!kinds.includes(k)) kinds.push(k);
    }
  }
  return kinds;
}

/**
 * Secrets on one added line; at most one finding per kind. A line with a known token or value skips the generic
 * check for credential-like names.
 */
export function scanLine(text: string, known: readonly KnownSecret[] = []): string[] {
  const kinds = [...tokenKinds(text), ...knownKinds(text, known)];
  if (kinds.length > 0) return kinds;
  for (const m of ASSIGNMENT_HINT.test(text) ? text.matchAll(ASSIGNMENT) : []) {
    if (isSecretAssignment(m[1] ?? '', m[3] ?? '')) return ['hard-coded secret'];
  }
  return base64Kinds(text);
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

/**
 * The added lines as logical lines: a line ending in `\` goes on with the next added line (shell, Python, .env,
 * C macros), so `API_KEY=abc\` + `def…` is read as one value. A logical line keeps its first line's number.
 */
function logicalLines(lines: PatchFile['addedLines']): Array<{ n: number; text: string }> {
  const out: Array<{ n: number; text: string }> = [];
  let open: { n: number; text: string; last: number } | null = null;
  for (const line of lines) {
    if (open && line.n === open.last + 1) {
      open.text += line.text.trimStart();
      open.last = line.n;
    } else {
      if (open) out.push({ n: open.n, text: open.text });
      open = { n: line.n, text: line.text, last: line.n };
    }
    if (open.text.endsWith('\\')) open.text = open.text.slice(0, -1);
    else {
      out.push({ n: open.n, text: open.text });
      open = null;
    }
  }
  if (open) out.push({ n: open.n, text: open.text });
  return out;
}

/**
 * Secrets in a `git diff` patch: per added line (`line` = its number in the new file), and per added or renamed-to
 * file whose name says it holds secrets (`line` = 0: the file itself). Binary files are not read here: see
 * binaryFiles() and scanBinary().
 */
export function scanDiff(patchText: string, known: readonly KnownSecret[] = []): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const file of parsePatch(patchText)) {
    if (file.added) {
      const kind = secretFileKind(file.path);
      if (kind) findings.push({ file: file.path, line: 0, kind });
    }
    for (const line of logicalLines(file.addedLines)) {
      for (const kind of scanLine(line.text, known)) findings.push({ file: file.path, line: line.n, kind });
    }
  }
  return findings;
}

/** The binary files a patch adds or changes, with the blob that holds their new content. */
export function binaryFiles(patchText: string): Array<{ path: string; blob: string }> {
  return parsePatch(patchText)
    .filter((f) => f.binary && !f.deleted && f.newBlob !== null)
    .map((f) => ({ path: f.path, blob: f.newBlob ?? '' }));
}

/**
 * Known token formats and known values in a binary file's bytes (read as text: tokens are ASCII, so they survive
 * whatever the bytes around them are). `line` = 0: the file as a whole. Strings stored as UTF-16 are not seen.
 */
export function scanBinary(file: string, content: string, known: readonly KnownSecret[] = []): SecretFinding[] {
  return [...tokenKinds(content), ...knownKinds(content, known)].map((kind) => ({ file, line: 0, kind }));
}

/** Secrets in the commit message agent-collab is about to write (the step's `Summary:` line). */
export function scanMessage(message: string, known: readonly KnownSecret[] = []): SecretFinding[] {
  return message
    .split('\n')
    .flatMap((text, i) => scanLine(text, known).map((kind) => ({ file: COMMIT_MESSAGE, line: i + 1, kind })));
}
