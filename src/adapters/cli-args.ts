// Helpers shared by the adapters' argv builders.

/**
 * A prompt passed as a positional argument. A leading "-" would be parsed as an option (and a lone "-" means
 * "read stdin" to codex), so such a prompt gets a leading space.
 */
export function promptArg(prompt: string): string {
  return prompt.startsWith('-') ? ` ${prompt}` : prompt;
}
