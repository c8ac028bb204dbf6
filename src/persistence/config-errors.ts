import { z } from 'zod';
import { configSchema } from './config-schema.js';

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
  if (field instanceof z.ZodNumber) {
    const kind = field.isInt ? 'an integer' : 'a number';
    if (issue.code === 'too_big' && field.maxValue !== null) return `${kind} ≤ ${field.maxValue}`;
    const min = field.minValue;
    return min !== null && Number.isFinite(min) ? `${kind} ≥ ${min}` : kind;
  }
  if (field instanceof z.ZodEnum) return `one of ${field.options.map((o) => JSON.stringify(o)).join(', ')}`;
  if (field instanceof z.ZodBoolean) return 'true or false';
  if (field instanceof z.ZodString) return issue.code === 'too_small' ? 'a non-empty string' : 'a string';
  if (field instanceof z.ZodArray) return field.element instanceof z.ZodString ? 'a list of strings' : 'a list';
  if (field instanceof z.ZodObject) return 'a table';
  return null;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodDefault || s instanceof z.ZodPrefault || s instanceof z.ZodOptional) {
    s = s.unwrap() as z.ZodType;
  }
  return s;
}

function fieldAt(path: readonly PropertyKey[]): z.ZodType | null {
  let s: z.ZodType | undefined = configSchema;
  for (const key of path) {
    s = unwrap(s);
    if (s instanceof z.ZodObject) s = (s.shape as Record<string, z.ZodType>)[String(key)];
    else if (s instanceof z.ZodArray) s = s.element as z.ZodType;
    else return null;
    if (!s) return null;
  }
  return unwrap(s);
}

function knownKeys(path: readonly PropertyKey[]): string[] {
  const s = fieldAt(path);
  return s instanceof z.ZodObject ? Object.keys(s.shape) : [];
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
  const text = value instanceof Date ? value.toISOString() : JSON.stringify(value) ?? String(value);
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > 40 ? `${oneLine.slice(0, 39)}…` : oneLine;
}
