import * as z from './zod.js';
import { configSchema } from './config-schema.js';
import { marker, redactText } from '../core/redact.js';
import { looksLikeRandomSecret } from '../core/secret-patterns.js';

/** Turns the first zod issue for a config layer into "key path + what is expected (got …)", one line. */
export function describeConfigIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const where = formatPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => formatPath([...issue.path, k]));
    const known = knownKeys(issue.path);
    return `unknown key${keys.length > 1 ? 's' : ''} ${keys.join(', ')} (known: ${known.join(', ')})`;
  }
  const got = `(got ${formatValue(valueAt(raw, issue.path))})`;
  if (issue.code === 'custom') return `${where} must be ${issue.message} ${got}`;
  const expected = expectation(issue);
  if (expected) return `${where} must be ${expected} ${got}`;
  return `${where} is invalid: ${issue.message.split('\n')[0]} ${got}`;
}

function expectation(issue: z.core.$ZodIssue): string | null {
  const field = fieldAt(issue.path);
  if (field instanceof z.ZodMiniNumber) {
    const { isInt, min, max } = numberBounds(field);
    const kind = isInt ? 'an integer' : 'a number';
    if (issue.code === 'too_big' && max !== null) return `${kind} ≤ ${max}`;
    return min !== null ? `${kind} ≥ ${min}` : kind;
  }
  if (field instanceof z.ZodMiniEnum) return `one of ${field.options.map((o) => JSON.stringify(o)).join(', ')}`;
  if (field instanceof z.ZodMiniBoolean) return 'true or false';
  if (field instanceof z.ZodMiniString) return issue.code === 'too_small' ? 'a non-empty string' : 'a string';
  if (field instanceof z.ZodMiniArray)
    return field._zod.def.element instanceof z.ZodMiniString ? 'a list of strings' : 'a list';
  if (field instanceof z.ZodMiniObject) return 'a table';
  return null;
}

/** What a number field's checks allow: whole numbers only, and the tightest inclusive bounds. */
function numberBounds(field: z.ZodMiniNumber): { isInt: boolean; min: number | null; max: number | null } {
  // A format schema such as z.int() is its own first check. Checks are told apart by their def's `check` name, not
  // by class: the check classes live in z.core, and using a value from there would bundle all of zod.
  const defs: Partial<z.core.$ZodCheckDef>[] = [
    field._zod.def,
    ...(field._zod.def.checks ?? []).map((c) => c._zod.def),
  ];
  let isInt = false;
  let min: number | null = null;
  let max: number | null = null;
  for (const def of defs) {
    if (def.check === 'number_format') isInt ||= (def as z.core.$ZodCheckNumberFormatDef).format.includes('int');
    else if (def.check === 'greater_than')
      min = Math.max(min ?? -Infinity, Number((def as z.core.$ZodCheckGreaterThanDef).value));
    else if (def.check === 'less_than')
      max = Math.min(max ?? Infinity, Number((def as z.core.$ZodCheckLessThanDef).value));
  }
  return { isInt, min, max };
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let s = schema;
  while (s instanceof z.ZodMiniDefault || s instanceof z.ZodMiniPrefault || s instanceof z.ZodMiniOptional) {
    s = s._zod.def.innerType;
  }
  return s;
}

function fieldAt(path: readonly PropertyKey[]): z.core.$ZodType | null {
  let s: z.core.$ZodType | undefined = configSchema;
  for (const key of path) {
    s = unwrap(s);
    if (s instanceof z.ZodMiniObject) s = s._zod.def.shape[String(key)];
    else if (s instanceof z.ZodMiniArray) s = s._zod.def.element;
    else return null;
    if (!s) return null;
  }
  return unwrap(s);
}

function knownKeys(path: readonly PropertyKey[]): string[] {
  const s = fieldAt(path);
  return s instanceof z.ZodMiniObject ? Object.keys(s._zod.def.shape) : [];
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v = raw;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

function formatValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  // A key pasted into the wrong field is not printed back: redacted before it is cut (a cut token is no longer known).
  if (typeof value === 'string' && looksLikeRandomSecret(value)) return marker('secret');
  const text = value instanceof Date ? value.toISOString() : (JSON.stringify(value) ?? String(value));
  const oneLine = redactText(text.replace(/\s+/g, ' '));
  return oneLine.length > 40 ? `${oneLine.slice(0, 39)}…` : oneLine;
}
