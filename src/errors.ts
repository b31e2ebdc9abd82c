// The error vocabulary and the exit-code table: the only place exit codes are decided.
// Commands throw these (or return an ExitCode); main() maps whatever escapes to a code and a message on stderr.

export const ExitCode = {
  Ok: 0,
  /** An unexpected failure (a bug, or something the tool did not foresee). */
  Failure: 1,
  /** Invalid usage or input: nothing was sent. */
  Usage: 2,
  /** Cancelled at a prompt. */
  Cancelled: 3,
  /** Not authenticated (no or wrong token), or the organization has no subscription. */
  Auth: 4,
  /** Payment refused: the card was declined or there is no valid payment method. */
  Payment: 5,
  /** The service rejected the request (another 4xx, an invalid address...). */
  Rejected: 6,
  /**
   * The service is unavailable after retries (5xx, network, 409 or 429 after retries), or a request whose answer was
   * lost may still be in flight (a rerun settles it first).
   */
  Unavailable: 7,
  /** Partly done: a batch where some items succeeded and some failed; the output says which. */
  Partial: 8,
  /** Interrupted (Ctrl-C). */
  Interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** One line per code, for `shipctl help exit-codes` and the README. */
export const EXIT_CODE_TABLE: ReadonlyArray<readonly [ExitCode, string]> = [
  [ExitCode.Ok, "success"],
  [ExitCode.Failure, "unexpected failure"],
  [ExitCode.Usage, "invalid usage or input (nothing was sent)"],
  [ExitCode.Cancelled, "cancelled at a prompt"],
  [ExitCode.Auth, "not authenticated, or the organization has no subscription"],
  [ExitCode.Payment, "payment refused (declined card or no valid payment method)"],
  [ExitCode.Rejected, "the service rejected the request (other 4xx, invalid address)"],
  [ExitCode.Unavailable, "service unavailable after retries (5xx, network, 409 or 429), or a lost answer still in flight (a rerun settles it)"],
  [ExitCode.Partial, "partly done: some items succeeded and some failed (the output says which)"],
  [ExitCode.Interrupted, "interrupted (Ctrl-C); rerun the same command to resume where it applies"],
];

export interface CliErrorOptions {
  /** What the user can do about it, printed after the message. */
  hint?: string;
  cause?: unknown;
}

export class CliError extends Error {
  exitCode: ExitCode = ExitCode.Failure;
  readonly hint?: string;
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
  }
}

export class UsageError extends CliError {
  override exitCode: ExitCode = ExitCode.Usage;
}
export class CancelledError extends CliError {
  override exitCode: ExitCode = ExitCode.Cancelled;
}
export class AuthError extends CliError {
  override exitCode: ExitCode = ExitCode.Auth;
}
export class PaymentError extends CliError {
  override exitCode: ExitCode = ExitCode.Payment;
}
export class RejectedError extends CliError {
  override exitCode: ExitCode = ExitCode.Rejected;
}
export class UnavailableError extends CliError {
  override exitCode: ExitCode = ExitCode.Unavailable;
}
export class PartialError extends CliError {
  override exitCode: ExitCode = ExitCode.Partial;
}
export class InterruptedError extends CliError {
  override exitCode: ExitCode = ExitCode.Interrupted;
}

export function exitCodeFor(err: unknown): ExitCode {
  if (err instanceof CliError) return err.exitCode;
  return ExitCode.Failure;
}
