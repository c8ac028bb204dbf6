const UNITS: Record<string, number> = {
  '': 1,
  B: 1,
  K: 1024,
  KB: 1024,
  KIB: 1024,
  M: 1024 ** 2,
  MB: 1024 ** 2,
  MIB: 1024 ** 2,
  G: 1024 ** 3,
  GB: 1024 ** 3,
  GIB: 1024 ** 3,
};

/** Parses "10MB", "512 KB", "1.5GiB", "2048" into bytes; null when it is not a size. */
export function parseSize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  if (!m) return null;
  const factor = UNITS[(m[2] ?? '').toUpperCase()];
  if (factor === undefined) return null;
  const bytes = Math.floor(Number(m[1]) * factor);
  return bytes > 0 ? bytes : null;
}
