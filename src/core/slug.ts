// The slug of a goal: its first words, lowercase ASCII joined by '-', at most 40 characters ('run' when nothing is
// left). It names things that outlive the run and are not redacted as text: a worktree's branch (pushed, listed)
// and dir, a run's history dir. Pure.
import { redactText, type KnownSecret } from './redact.js';
import { looksLikeRandomSecret } from './secret-patterns.js';

const MAX_SLUG = 40;

/**
 * A branch- and file-name-safe slug of a goal's first words; "run" when nothing is left. A secret in the goal (a
 * known format, a random-looking word, the value of one of `known`) is left out: a ref is pushed, listed and kept.
 */
export function slugOf(text: string, known: readonly KnownSecret[] = []): string {
  const words = redactText(text, known)
    .replace(/\[REDACTED:[^\]]*\]/g, ' ')
    .split(/\s+/)
    .filter((w) => !looksLikeRandomSecret(w))
    .join(' ')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '') // "ü" → "u", not "u-"
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  let slug = '';
  for (const w of words) {
    const next = slug ? `${slug}-${w}` : w;
    if (next.length > MAX_SLUG) break;
    slug = next;
  }
  return slug || (words[0] ?? '').slice(0, MAX_SLUG) || 'run';
}
