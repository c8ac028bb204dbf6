// The one redaction layer: everything agent-collab writes or prints passes through redactText() or redactDeep()
// at its sink (debug.log, runs/, log.md, state.json, NDJSON, text output, the TUI). Secrets become
// `[REDACTED:<kind>]`. Pure: the exact values to hide (secret-looking variables of agent-collab's own environment)
// are found once at startup by the caller (secretEnvValues) and passed in.
// The replacement never contains `"` or `\` and a replaced span never cuts an escape: JSON text stays JSON.
import {
  ASSIGNMENT,
  ASSIGNMENT_HINT,
  mayHold,
  PRIVATE_KEY_BLOCK,
  TOKEN_RULES,
  isSecretAssignment,
  looksLikePlaceholder,
  looksLikeRandomSecret,
} from './secret-patterns.js';

/** A value to hide wherever it appears, and the variable it came from. */
export interface KnownSecret {
  name: string;
  value: string;
}

export function marker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/** Shorter values are not hidden by exact match: they would turn up in ordinary text. */
const MIN_KNOWN_LENGTH = 8;

/** Variable names whose value is a credential (ANTHROPIC_API_KEY, GH_TOKEN, DB_PASSWORD, AWS_SECRET_ACCESS_KEY…). */
const SECRET_ENV_NAME = /(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|AUTH)(?:_|$)|_PAT$|(?:^|_)PW$/i;
/** Names that match but never hold a secret. */
const NOT_SECRET_ENV =
  /^(?:SSH_AUTH_SOCK|GPG_AGENT_INFO|KEYTIMEOUT|.*_(?:FILE|PATH|DIR|URL|ID|HOST|PORT|USER|NAME|REGION))$/i;

/**
 * The values of secret-looking variables (by name), long enough and not placeholders, paths or plain numbers:
 * hidden wherever they appear, however they are written. The longest first, so a value inside another goes second.
 */
export function secretEnvValues(env: Readonly<Record<string, string | undefined>>): KnownSecret[] {
  const found: KnownSecret[] = [];
  for (const [name, raw] of Object.entries(env)) {
    const value = raw?.trim() ?? '';
    if (!SECRET_ENV_NAME.test(name) || NOT_SECRET_ENV.test(name)) continue;
    if (value.length < MIN_KNOWN_LENGTH || looksLikePlaceholder(value)) continue;
    if (/^(?:\/|~\/|\.\.?\/)/.test(value) || /^\d+$/.test(value) || /^(?:true|false)$/i.test(value)) continue;
    found.push({ name, value });
  }
  return found.sort((a, b) => b.value.length - a.value.length);
}

/** The forms a value takes in agent-collab's text: as is, and inside a JSON string. */
function forms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  return json === value ? [value] : [value, json];
}

function replaceKnown(text: string, known: readonly KnownSecret[]): string {
  let out = text;
  for (const k of known) {
    for (const form of forms(k.value)) {
      if (out.includes(form)) out = out.split(form).join(marker(k.name));
    }
  }
  return out;
}

/** Replaces the token at the end of `match` (group 1 of a rule) by its marker. */
function replaceTail(match: string, token: string, tag: string): string {
  return `${match.slice(0, match.length - token.length)}${marker(tag)}`;
}

/**
 * `text.replace(re, fn)` for a global regex, built from matchAll: V8's replace with a callback is many times slower
 * on large texts. The text is only copied when something is replaced.
 */
function replaceMatches(text: string, re: RegExp, fn: (m: RegExpExecArray) => string): string {
  let parts: string[] | null = null;
  let last = 0;
  for (const m of text.matchAll(re)) {
    const by = fn(m);
    if (by === m[0]) continue;
    (parts ??= []).push(text.slice(last, m.index), by);
    last = m.index + m[0].length;
  }
  if (parts === null) return text;
  parts.push(text.slice(last));
  return parts.join('');
}

/** Every secret in `text` replaced by `[REDACTED:<kind>]`. Linear in the text's length. */
export function redactText(text: string, known: readonly KnownSecret[] = []): string {
  if (text.length === 0) return text;
  let out = known.length > 0 ? replaceKnown(text, known) : text;
  if (out.includes('PRIVATE KEY')) out = replaceMatches(out, PRIVATE_KEY_BLOCK, () => marker('private-key'));
  for (const rule of TOKEN_RULES) {
    if (!mayHold(out, rule.hints)) continue;
    const accept = rule.accept ?? ((t: string) => !looksLikePlaceholder(t));
    out = replaceMatches(out, rule.re, (m) => {
      const t = m[1] ?? m[0];
      return accept(t) ? replaceTail(m[0], t, rule.tag) : m[0];
    });
  }
  if (!ASSIGNMENT_HINT.test(out)) return out;
  return replaceMatches(out, ASSIGNMENT, (m) => {
    const name = m[1] ?? '';
    const value = m[3] ?? '';
    if (value.startsWith('[REDACTED:')) return m[0];
    return isSecretAssignment(name, value) ? replaceTail(m[0], value, 'secret') : m[0];
  });
}

/** Keys whose value is credential-like whatever it looks like (`{"password": "…"}` in a JSON object). */
const SECRET_KEY = /(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key)$/i;

/**
 * A copy of `value` with every string redacted (objects and arrays walked; other values as they are). Keys listed in
 * `keep` (at any depth) keep their value verbatim: things agent-collab needs back exactly, such as a command it runs.
 * A string under a credential-like key that looks random is hidden as a whole.
 */
export function redactDeep<T>(value: T, known: readonly KnownSecret[] = [], keep: ReadonlySet<string> = NO_KEYS): T {
  return walk(value, known, keep, null) as T;
}

const NO_KEYS: ReadonlySet<string> = new Set();

function walk(value: unknown, known: readonly KnownSecret[], keep: ReadonlySet<string>, key: string | null): unknown {
  if (typeof value === 'string') {
    if (key !== null && SECRET_KEY.test(key) && value.length > 0 && looksLikeRandomSecret(value))
      return marker('secret');
    return redactText(value, known);
  }
  if (Array.isArray(value)) return value.map((v) => walk(v, known, keep, null));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = keep.has(k) ? v : walk(v, known, keep, k);
  return out;
}

/**
 * Fields of the workflow state kept verbatim wherever the state is written or shown: ids, hashes and times
 * agent-collab reads back, and the test command it runs after a resume. Every other string is redacted: a resumed
 * run sees `[REDACTED:<kind>]` where the goal, an answer or a summary held a secret, and asks again for a command
 * allowed for the session that held one.
 */
export const STATE_VERBATIM: ReadonlySet<string> = new Set([
  'runId',
  'sessions',
  'baseTree',
  'startedAt',
  'createdAt',
  'updatedAt',
  'commit',
  'id',
  'testCommand',
]);

export interface Redactor {
  /** The known values it hides (for the pre-commit scan). */
  readonly known: readonly KnownSecret[];
  text(text: string): string;
  deep<T>(value: T, keep?: ReadonlySet<string>): T;
  /**
   * A redactor for a stream of lines (a test's output, a CLI's stderr): a private key's body lines after its
   * header line are hidden too, up to the footer.
   */
  lines(): (line: string) => string;
}

const KEY_HEADER = /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/;
const KEY_FOOTER = /-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/;
const KEY_BODY_LINE = /^[\sA-Za-z0-9+/=:,.-]{0,200}$/;

export function createRedactor(known: readonly KnownSecret[] = []): Redactor {
  const text = (t: string): string => redactText(t, known);
  return {
    known,
    text,
    deep: (v, keep) => redactDeep(v, known, keep),
    lines: () => {
      let inKey = false;
      return (line) => {
        if (inKey) {
          if (KEY_FOOTER.test(line)) {
            inKey = false;
            return text(line.replace(KEY_FOOTER, marker('private-key')));
          }
          if (KEY_BODY_LINE.test(line)) return marker('private-key');
          inKey = false;
        }
        if (KEY_HEADER.test(line) && !KEY_FOOTER.test(line)) inKey = true;
        return text(line);
      };
    },
  };
}

/** No secrets hidden beyond the known formats: for code that runs before the environment is read (tests). */
export const patternRedactor: Redactor = createRedactor();
