// The pre-commit secret scan over what a step commit would hold: the commit message, the patch's added lines and
// the raw bytes of the files git treats as binary (their patch shows no lines; the blob is read from git).
import type { KnownSecret } from '../../core/redact.js';
import { binaryFiles, scanBinary, scanDiff, scanMessage } from '../../core/secret-scan.js';
import type { SecretFinding } from '../../core/types.js';
import { runGit } from './git.js';

/** Binary files up to this size are read whole and scanned; a larger one is left to `[safety] max_file_size`. */
export const BINARY_SCAN_MAX_BYTES = 32 * 1024 * 1024;

export async function findSecrets(
  repoRoot: string,
  patch: string,
  message: string,
  known: readonly KnownSecret[],
  signal?: AbortSignal,
): Promise<SecretFinding[]> {
  const findings = [...scanMessage(message, known), ...scanDiff(patch, known)];
  for (const file of binaryFiles(patch)) {
    const size = await runGit(repoRoot, ['cat-file', '-s', file.blob], { signal });
    if (size.exitCode !== 0 || Number(size.stdout.trim()) > BINARY_SCAN_MAX_BYTES) continue;
    // Decoded as UTF-8: invalid bytes become U+FFFD, ASCII (every token format) comes through as it is.
    const blob = await runGit(repoRoot, ['cat-file', 'blob', file.blob], { signal });
    if (blob.exitCode === 0) findings.push(...scanBinary(file.path, blob.stdout, known));
  }
  return findings;
}
