/** Exit codes documented in the README. */
export const EXIT = {
  done: 0,
  badInput: 2,
  needsHuman: 3,
  agentFailure: 4,
  interrupted: 130,
} as const;

/**
 * An error the user caused or can fix. Its message is one line that says what is wrong and what to do;
 * the CLI prints it without a stack trace and exits with `exitCode`.
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.badInput,
  ) {
    super(message);
    this.name = 'UserError';
  }
}
