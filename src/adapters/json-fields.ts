// Small readers for untyped JSON from the CLIs: a field of the wrong type reads as absent.

export type Json = Record<string, unknown>;

export function obj(v: unknown): Json | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
}

export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

export function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** One stdout line as a JSON object; null for anything else (banners, blank lines, broken JSON). */
export function parseJsonLine(line: string): Json | null {
  const t = line.trim();
  if (!t.startsWith('{')) return null;
  try {
    return obj(JSON.parse(t));
  } catch {
    return null;
  }
}
