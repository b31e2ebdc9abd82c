// The error vocabulary and the exit-code table: the only place exit codes are decided.
// Commands throw these (or return an ExitCode); main() maps whatever escapes to a code and a message on stderr.
import { dirname } from "node:path";

export const ExitCode = {
  Ok: 0,
  /** An unexpected failure (a bug, or something the tool did not foresee). */
  Failure: 1,
  /** Invalid usage or input, or a setting to fix first (a refused TLS certificate): nothing was sent. */
  Usage: 2,
  /** Cancelled at a prompt. */
  Cancelled: 3,
  /** Not authenticated (no or wrong token), or the organization has no subscription. */
  Auth: 4,
  /** Payment refused: the card was declined or there is no valid payment method. */
  Payment: 5,
  /** The service rejected the request (another 4xx, an invalid address, a redirect...). */
  Rejected: 6,
  /**
   * The service is unavailable after retries (5xx, network, 409 or 429 after retries), or a request whose answer was
   * lost may still be in flight (a rerun settles it first).
   */
  Unavailable: 7,
  /** Partly done: a batch where some items succeeded and some failed; the output says which. */
  Partial: 8,
  /**
   * A CSV create left rows as they were because they were edited since they were created (or could not be told from
   * such a row); everything else was done. `--update-changed` or `--force-new` says what to do with them.
   */
  Changed: 9,
  /** `due` only: a condition-report window is open (closing within --within when given); nothing failed. */
  Due: 10,
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
  [ExitCode.Rejected, "the service rejected the request (other 4xx, invalid address), or redirected it (never followed)"],
  [ExitCode.Unavailable, "service unavailable after retries (5xx, network, 409 or 429), or a lost answer still in flight (a rerun settles it)"],
  [ExitCode.Partial, "partly done: some items succeeded and some failed (the output says which)"],
  [ExitCode.Changed, "rows edited since they were created were left as they were (or not created: not matched with certainty); the rest was done. --update-changed or --force-new decides"],
  [ExitCode.Due, "shipctl due: a condition-report window is open (closing within --within when given); for cron and monitoring"],
  [ExitCode.Interrupted, "interrupted (Ctrl-C); rerun the same command to resume where it applies"],
];

/**
 * The stable name of each kind of failure, for scripts: `{"error": {"code": "not_found", "exit_code": 6, ...}}` in the
 * --json output (errorJson below). Each error class says which is its own (errorCode), as it says its exit code; a
 * name, once published, never changes meaning. Several names share an exit code: the code says what to do, the name
 * says what happened. README "Errors as JSON" lists them (a unit test keeps the two equal).
 */
export const ERROR_CODE_TABLE = [
  ["failure", ExitCode.Failure, "a failure shipctl cannot classify further (a damaged ledger, a body that could not be read)"],
  ["internal_error", ExitCode.Failure, "a bug in shipctl (run again with --debug)"],
  ["unexpected_response", ExitCode.Failure, "the service answered outside its contract"],
  ["file_in_use", ExitCode.Failure, "a file shipctl writes is held by another program (a results file open in Excel) or cannot be written; the message names it"],
  ["query_failed", ExitCode.Failure, "--query failed on the output (a function given the wrong type); the output is printed as it was"],
  ["usage_error", ExitCode.Usage, "invalid usage or input; nothing was sent"],
  ["certificate_error", ExitCode.Usage, "the service's TLS certificate was refused (untrusted, expired, wrong host); nothing was sent"],
  ["lock_failed", ExitCode.Usage, "a lock file could not be created (a folder shipctl may not write, a read-only or full disk); the message names it; nothing was sent"],
  ["cancelled", ExitCode.Cancelled, "cancelled at a prompt"],
  ["auth_required", ExitCode.Auth, "not logged in, or the saved token may not be sent to this base URL"],
  ["unauthorized", ExitCode.Auth, "the service refused the token (401)"],
  ["no_subscription", ExitCode.Auth, "the organization has no subscription (402)"],
  ["payment_failed", ExitCode.Payment, "the payment was refused"],
  ["payment_declined", ExitCode.Payment, "the card was declined"],
  ["no_payment_method", ExitCode.Payment, "the organization has no valid payment method"],
  ["rejected", ExitCode.Rejected, "the service refused the request"],
  ["forbidden", ExitCode.Rejected, "the service forbade the request (403)"],
  ["not_found", ExitCode.Rejected, "the resource does not exist (404)"],
  ["validation_failed", ExitCode.Rejected, "the service refused the input field by field (422); see `errors`"],
  ["request_rejected", ExitCode.Rejected, "the service refused the request (another 4xx)"],
  ["redirected", ExitCode.Rejected, "the service answered a redirect (3xx), which shipctl never follows with the token"],
  ["unavailable", ExitCode.Unavailable, "the service is unavailable, or a lost answer is still in flight"],
  ["network_error", ExitCode.Unavailable, "the connection failed"],
  ["conflict", ExitCode.Unavailable, "the service answered 409 after the retries"],
  ["rate_limited", ExitCode.Unavailable, "the service answered 429 after the retries"],
  ["server_error", ExitCode.Unavailable, "the service failed (5xx) after the retries"],
  ["upstream_rate_limited", ExitCode.Unavailable, "the service's own upstream stayed throttled"],
  ["partial", ExitCode.Partial, "some items succeeded and some failed; the document says which"],
  ["changed_rows", ExitCode.Changed, "rows edited since they were created were left as they were, or not created because they could not be matched with certainty; the document lists them (changed, unsure)"],
  ["due", ExitCode.Due, "shipctl due: a condition-report window is open (closing within --within when given)"],
  ["interrupted", ExitCode.Interrupted, "interrupted (Ctrl-C)"],
] as const satisfies ReadonlyArray<readonly [string, ExitCode, string]>;
export type ErrorCode = (typeof ERROR_CODE_TABLE)[number][0];

export interface CliErrorOptions {
  /** What the user can do about it, printed after the message. */
  hint?: string;
  cause?: unknown;
}

export class CliError extends Error {
  exitCode: ExitCode = ExitCode.Failure;
  /** The failure's name in --json output (ERROR_CODE_TABLE); `code` is left to system errors' (ECONNREFUSED). */
  errorCode: ErrorCode = "failure";
  readonly hint?: string;
  /** Facts for scripts beside the message (snake_case keys other than code, exit_code, message, hint), e.g. http_status. */
  details: Record<string, unknown> = {};
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
  }
}

export class UsageError extends CliError {
  override exitCode: ExitCode = ExitCode.Usage;
  override errorCode: ErrorCode = "usage_error";
}
/** --query failed on what a run printed: the run did its work (maybe sent), so it is not a usage error. */
export class QueryFailedError extends CliError {
  override errorCode: ErrorCode = "query_failed";
}
export class CancelledError extends CliError {
  override exitCode: ExitCode = ExitCode.Cancelled;
  override errorCode: ErrorCode = "cancelled";
}
export class AuthError extends CliError {
  override exitCode: ExitCode = ExitCode.Auth;
  override errorCode: ErrorCode = "auth_required";
}
export class PaymentError extends CliError {
  override exitCode: ExitCode = ExitCode.Payment;
  override errorCode: ErrorCode = "payment_failed";
}
export class RejectedError extends CliError {
  override exitCode: ExitCode = ExitCode.Rejected;
  override errorCode: ErrorCode = "rejected";
}
export class UnavailableError extends CliError {
  override exitCode: ExitCode = ExitCode.Unavailable;
  override errorCode: ErrorCode = "unavailable";
}
/**
 * The shared ledger (a team's PostgreSQL database, docs/team.md) could not be reached or stopped answering: exit 7
 * under "unavailable", like the service's own outage, since what to do is the same (wait, run again: a rerun settles
 * what was in flight). Before a run nothing was sent; in the middle, no request left without its entry committed.
 * Never a fall back to the local ledger, which knows nothing of the team's entries.
 */
export class LedgerUnavailable extends UnavailableError {}
/**
 * This run's lease in the shared ledger was not confirmed for too long (its renewals failed: the database unreachable,
 * the machine asleep) or was taken over: another machine may take over its entries in flight, so no request of it
 * leaves (ledger/postgres-leases.ts). Exit 7 under "unavailable", as LedgerUnavailable: a rerun settles those rows.
 */
export class LeaseLapsed extends LedgerUnavailable {}
/**
 * The shared ledger's schema is newer than this shipctl knows (a teammate runs a newer shipctl): exit 2, nothing
 * sent; this shipctl never writes into a schema it does not know.
 */
export class LedgerSchemaNewer extends UsageError {}
export class PartialError extends CliError {
  override exitCode: ExitCode = ExitCode.Partial;
  override errorCode: ErrorCode = "partial";
}
export class InterruptedError extends CliError {
  override exitCode: ExitCode = ExitCode.Interrupted;
  override errorCode: ErrorCode = "interrupted";
}

/**
 * A file shipctl must replace or write is held by another program (Excel's share lock, an antivirus scan, OneDrive)
 * after the waits of fs/held-file.ts, or cannot be written at all. Exit 1 after something was sent (what was sent is
 * in the ledger; the same command again writes the file without sending anything); before anything is sent the
 * check of --results throws a UsageError instead (exit 2).
 */
export class FileInUseError extends CliError {
  override errorCode: ErrorCode = "file_in_use";
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code ?? "";
    super(`${path} could not be written (${code}): another program has it open (Excel, an antivirus scan, OneDrive), or it is read-only`, {
      hint: "Close it (in Excel: close the workbook) and run the same command again; nothing is sent twice.",
      cause,
    });
    this.details = { file: path };
  }
}

/** Why a lock file could not be created, and what to do, by the system's error code. */
const LOCK_FAILURES: Record<string, readonly [string, (dir: string) => string]> = {
  EACCES: ["shipctl may not create files in its folder", (dir) => `Give your user write access to ${dir}, or set SHIPCTL_STATE_DIR to a folder you can write to.`],
  EPERM: ["shipctl may not create files in its folder", (dir) => `Give your user write access to ${dir}, or set SHIPCTL_STATE_DIR to a folder you can write to.`],
  EROFS: ["the disk is read-only", (dir) => `Make ${dir} writable (a USB stick's write-protect switch, a share mounted read-only), or set SHIPCTL_STATE_DIR to a writable folder.`],
  ENOSPC: ["the disk is full", (dir) => `Free some space on the disk of ${dir}.`],
  EDQUOT: ["your disk quota is used up", (dir) => `Free some space on the disk of ${dir}.`],
  ENOTDIR: ["a file stands where a folder of its path should be", (dir) => `Move aside the file in the way of ${dir}.`],
};

/**
 * A lock (ledger/lock.ts) could not be taken for a reason other than another run holding it: its file cannot be
 * created or written. Locks are taken before anything is sent, so this is a setting to fix first (exit 2), as a
 * refused certificate is; the message names the lock file and what it guards.
 */
export class LockFileError extends CliError {
  override exitCode: ExitCode = ExitCode.Usage;
  override errorCode: ErrorCode = "lock_failed";
  constructor(
    readonly path: string,
    what: string,
    cause: unknown,
  ) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code ?? "";
    const dir = dirname(path);
    const [why, fix] = LOCK_FAILURES[code] ?? [`the system refused it`, (d: string) => `Check that ${d} is a folder you can write to.`];
    super(`could not lock ${what}: ${path} cannot be created (${code}: ${why})`, {
      hint: `${fix(dir)} Then run the same command again; nothing was sent.`,
      cause,
    });
    this.details = { file: path };
  }
}

/**
 * `err`, which restates `cause` in context, under the cause's name and with its facts: a script reading `.error.code`
 * sees the same `server_error` or `network_error` (and `http_status`) whichever command met the failure.
 */
export function namedAs<E extends CliError>(err: E, cause: CliError): E {
  err.errorCode = cause.errorCode;
  err.details = cause.details;
  return err;
}

/** The exit code a failure ends a run with (a batch's, from its rows' outcomes, is batch/results.ts exitCodeOf). */
export function exitCodeOfError(err: unknown): ExitCode {
  return err instanceof CliError ? err.exitCode : ExitCode.Failure;
}

/** The `error` object of --json output: the same shape for every command and every failure (README "Errors as JSON"). */
export interface ErrorJson {
  code: ErrorCode;
  exit_code: number;
  message: string;
  hint: string | null;
  [detail: string]: unknown;
}

/** What a failure that is not a CliError (a bug) says to do: on stderr (main.ts) and in --json output. */
export const BUG_HINT = "This is a bug in shipctl. Run again with --debug for details.";

/** The text of anything thrown: its message when it is an Error. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * What a script learns of a failure. `exitCode` is the run's, when main() decided it otherwise (an interruption that
 * surfaced as some other error); errors that are not CliErrors are bugs.
 */
export function errorJson(err: unknown, exitCode: number = exitCodeOfError(err)): ErrorJson {
  if (err instanceof CliError) {
    const named = namedBy(err, exitCode);
    return { code: named?.errorCode ?? codeForExit(exitCode), exit_code: exitCode, message: err.message, hint: err.hint ?? null, ...named?.details };
  }
  const message = messageOf(err);
  if (exitCode === ExitCode.Interrupted) return { code: "interrupted", exit_code: exitCode, message, hint: null };
  return { code: "internal_error", exit_code: exitCode, message, hint: BUG_HINT };
}

/**
 * The `error` object of a run that failed without an error to show: it returned an exit code (a batch partly done,
 * 8), and its document says item by item what went wrong. The message is `summary` when given.
 */
export function exitErrorJson(exitCode: number, summary?: string): ErrorJson {
  const meaning = EXIT_CODE_TABLE.find(([c]) => c === exitCode)?.[1] ?? "failed";
  return { code: codeForExit(exitCode), exit_code: exitCode, message: summary ?? meaning, hint: null };
}

/**
 * The error whose name (and facts) a failure shows: itself while its exit code is its name's, or else the first of
 * its causes that is (a failure restated in context, as checkout's "session 2 was not paid: the card was declined",
 * keeps its cause's payment_declined); none when the exit code was changed after the fact (a failure that left a
 * payment in doubt is 7 whatever it was), which then shows the general name of its code.
 */
function namedBy(err: CliError, exitCode: number): CliError | undefined {
  for (let e: unknown = err; e instanceof CliError; e = e.cause) {
    if (ERROR_CODE_TABLE.some(([name, code]) => name === (e as CliError).errorCode && code === exitCode)) return e;
  }
  return undefined;
}

/** The general name of an exit code: the first of its names in ERROR_CODE_TABLE. */
function codeForExit(exitCode: number): ErrorCode {
  return ERROR_CODE_TABLE.find(([, c]) => c === exitCode)?.[0] ?? "failure";
}
