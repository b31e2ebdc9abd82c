// The typed failures of the HTTP layer. Each extends the base class of src/errors.ts whose exit code fits, so main()
// maps them without knowing HTTP; each also carries the request facts a caller needs to decide what to do next.
import {
  AuthError,
  CliError,
  InterruptedError,
  PaymentError,
  RejectedError,
  UnavailableError,
  UsageError,
  type CliErrorOptions,
  type ErrorCode,
} from "../errors.js";

/** What every API failure says about the request it came from. */
export interface RequestFacts {
  /** "GET", "POST", "PATCH". */
  method: string;
  /** The path without the query string, e.g. "/api/v1/shipments/12". */
  path: string;
  /** The HTTP status of the answer; undefined when no answer came (network failure, interruption). */
  status?: number;
  /**
   * True when the request may have reached the service and taken effect while the answer does not say so:
   * the connection dropped or timed out after the request was written, a 5xx, an interruption mid-flight, or a
   * success answer that could not be read. The caller must read back before sending it again (the service has no
   * idempotency key). False when nothing was sent, or when the service answered with a refusal (4xx).
   */
  mayHaveArrived: boolean;
}

const API_FAILURE = Symbol.for("shipctl.apiFailure");

export type ApiFailure = CliError & RequestFacts;

/** True for every error thrown by the HTTP layer (all carry method, path, status and mayHaveArrived). */
export function isApiFailure(err: unknown): err is ApiFailure {
  return typeof err === "object" && err !== null && (err as Record<symbol, unknown>)[API_FAILURE] === true;
}

/** An error class of src/errors.ts: made with a message. */
type ErrorClass = abstract new (message: string, options?: CliErrorOptions) => CliError;
/** Such a class made from the request's facts first: its errors carry them (method, path, status, mayHaveArrived). */
type ApiErrorClass<E> = abstract new (facts: RequestFacts, message: string, options?: CliErrorOptions) => E & RequestFacts;

/** `Base` (its exit code and family) with the request's facts; the errors below only add what is theirs. */
function withFacts<B extends ErrorClass>(Base: B): ApiErrorClass<InstanceType<B>> {
  abstract class WithFacts extends (Base as ErrorClass) {
    constructor(facts: RequestFacts, message: string, options?: CliErrorOptions) {
      super(message, options);
      const { method, path, status, mayHaveArrived } = facts;
      Object.assign(this, { method, path, status, mayHaveArrived });
      this.details = { ...this.details, method, path, http_status: status ?? null };
      Object.defineProperty(this, API_FAILURE, { value: true });
    }
  }
  return WithFacts as unknown as ApiErrorClass<InstanceType<B>>;
}

// One class per exit-code family, for `instanceof` (ledger/failure-kind.ts, watch).
export const ApiAuthError = withFacts(AuthError);
export const ApiPaymentError = withFacts(PaymentError);
export const ApiRejectedError = withFacts(RejectedError);
export const ApiUnavailableError = withFacts(UnavailableError);

/** The connection failed. `mayHaveArrived` false: refused, DNS, TLS or connect timeout (safe to resend). */
export class NetworkError extends ApiUnavailableError {
  override errorCode: ErrorCode = "network_error";
  /** The system or undici error code (ECONNREFUSED, UND_ERR_SOCKET...), when there is one. */
  readonly code?: string;
  constructor(facts: RequestFacts, message: string, options: CliErrorOptions & { code?: string }) {
    super(facts, message, options);
    this.code = options.code;
  }
}

/** 401: the token is missing, wrong or expired. */
export class UnauthorizedError extends ApiAuthError {
  override errorCode: ErrorCode = "unauthorized";
}

/** 402 anywhere but a declined checkout: the organization has no active subscription. */
export class NoSubscriptionError extends ApiAuthError {
  override errorCode: ErrorCode = "no_subscription";
}

/** 402 on POST /api/v1/checkout with `{status, message}`: the card was declined and the payment method invalidated. */
export class PaymentDeclinedError extends ApiPaymentError {
  override errorCode: ErrorCode = "payment_declined";
  /** The service's internal error code. */
  readonly serviceStatus: number;
  readonly serviceMessage: string;
  constructor(facts: RequestFacts, message: string, body: { status: number; message: string }, options?: CliErrorOptions) {
    super(facts, message, options);
    this.serviceStatus = body.status;
    this.serviceMessage = body.message;
    this.details = { ...this.details, service_status: body.status, service_message: body.message };
  }
}

/** 403 on POST /api/v1/checkout: the organization has no valid payment method. */
export class NoPaymentMethodError extends ApiPaymentError {
  override errorCode: ErrorCode = "no_payment_method";
}

/** 403 elsewhere. */
export class ForbiddenError extends ApiRejectedError {
  override errorCode: ErrorCode = "forbidden";
}

/** 404: the resource (or the endpoint, with a wrong base URL) does not exist. */
export class NotFoundError extends ApiRejectedError {
  override errorCode: ErrorCode = "not_found";
  /** `resource`: what was looked for, e.g. "shipment 12"; undefined when the path itself was not found. */
  constructor(facts: RequestFacts, message: string, readonly resource: string | undefined, options?: CliErrorOptions) {
    super(facts, message, options);
    this.details = { ...this.details, resource: resource ?? null };
  }
}

/** What `read` finds, or undefined when this token cannot see it: not found, or forbidden (another organization's). */
export async function unlessUnseen<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (e) {
    if (e instanceof NotFoundError || e instanceof ForbiddenError) return undefined;
    throw e;
  }
}

/** 422 (or a validation body on another 4xx): the service refused the input, field by field. */
export class ValidationError extends ApiRejectedError {
  override errorCode: ErrorCode = "validation_failed";
  /** `errors` as the service sent them, e.g. {"shipments.3.value": ["The value must be at least 50."]}. */
  constructor(facts: RequestFacts, message: string, readonly errors: Record<string, string[]>, options?: CliErrorOptions) {
    super(facts, message, options);
    this.details = { ...this.details, errors };
  }
}

/** Any other 4xx (400 outside verify, 405, 413...). */
export class RequestRejectedError extends ApiRejectedError {
  override errorCode: ErrorCode = "request_rejected";
}

/** 409: e.g. the payment failed while the checkout session was created; usually temporary (wait about a minute). */
export class ConflictError extends ApiUnavailableError {
  override errorCode: ErrorCode = "conflict";
}

/** 429 after the retries (or a Retry-After longer than shipctl waits). */
export class RateLimitedError extends ApiUnavailableError {
  override errorCode: ErrorCode = "rate_limited";
  /** `retryAfterMs` from Retry-After (seconds or an HTTP date), when the service sent one. */
  constructor(facts: RequestFacts, message: string, readonly retryAfterMs: number | undefined, options?: CliErrorOptions) {
    super(facts, message, options);
    this.details = { ...this.details, retry_after_ms: retryAfterMs ?? null };
  }
}

/** 5xx, and a price session that answered status 1 (Failed). */
export class ServerError extends ApiUnavailableError {
  override errorCode: ErrorCode = "server_error";
}

/** The service's own upstream (address verifier, rate look-up) stayed throttled (status 0) through every retry. */
export class UpstreamRateLimitedError extends ApiUnavailableError {
  override errorCode: ErrorCode = "upstream_rate_limited";
}

/**
 * The answer does not fit the contract: a success body of the wrong shape, a 1xx, a pagination link to another
 * path than the list being read. Exit 1: shipctl cannot tell what happened. A 2xx of the wrong shape did take effect.
 */
export class UnexpectedResponseError extends withFacts(CliError) {
  override errorCode: ErrorCode = "unexpected_response";
}

/** What was wrong with the service's TLS certificate (details `certificate_problem`). */
export type CertificateProblem = "untrusted" | "self_signed" | "expired" | "not_yet_valid" | "wrong_host" | "revoked" | "invalid";

/**
 * The service's TLS certificate was refused: nothing was sent, and sending again cannot help, so it is not retried.
 * Exit 2, as for any setting to fix before running again: the base URL, or which authorities this computer trusts.
 */
export class CertificateError extends withFacts(UsageError) {
  override errorCode: ErrorCode = "certificate_error";
  /** `code`: Node's or OpenSSL's (CERT_HAS_EXPIRED, UNABLE_TO_VERIFY_LEAF_SIGNATURE...). */
  constructor(facts: RequestFacts, message: string, readonly problem: CertificateProblem, readonly code: string, options?: CliErrorOptions) {
    super(facts, message, options);
    this.details = { ...this.details, certificate_problem: problem, tls_code: code };
  }
}

/**
 * A 3xx: the service (or something in front of it) sent the request elsewhere. Never followed, since the token goes
 * only to the base URL; nothing was done there. Exit 6 like a 404 from a wrong base URL: fix the setting, not retry.
 */
export class RedirectError extends ApiRejectedError {
  override errorCode: ErrorCode = "redirected";
  /** `location`: the Location header, redacted; undefined when the answer had none. */
  constructor(facts: RequestFacts, message: string, readonly location: string | undefined, options?: CliErrorOptions) {
    super(facts, message, options);
    this.details = { ...this.details, location: location ?? null };
  }
}

/** Ctrl-C (the signal) while a request was in flight or waiting to be retried. */
export class RequestInterruptedError extends withFacts(InterruptedError) {}

/** The body to upload could not be read (a photo removed mid-upload): the request was cut short, not applied. */
export class BodyReadError extends withFacts(CliError) {}
