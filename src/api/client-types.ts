// What commands may ask of the service: one method per endpoint of the contract (derived from api/endpoints.ts), the
// next page of a list, and `shipctl api`'s raw request. Implemented by api/client.ts over undici; commands receive it
// through Deps.api(), and unit tests give it a transport of stubs (test/helpers/http-stubs.ts).
import type { Readable } from "node:stream";
import type { PageOf, StoredAddress, StoredShipment, VerifyFailureBody } from "../contract/index.js";
import type { ApiFailure } from "./api-errors.js";
import type { CallSpec } from "./call.js";
import type { ENDPOINTS, EndpointName } from "./endpoints.js";
import type { HttpMethod, Transport, WireResponse } from "./transport.js";

export interface CallOptions {
  /**
   * Aborts the request (Ctrl-C). Only reads and other calls safe to repeat take it: a write that must not be repeated
   * (create, store, pay, upload) is aborted only by the client's write signal, so a run that is stopping lets it
   * answer and records what it did (see ApiClientOptions.writeSignal).
   */
  signal?: AbortSignal;
  /** Overrides the client's retry budget for calls that are safe to retry. */
  retries?: number;
  /** Told before each retry, so a command can show progress ("rate limited, retrying in 4 s"). */
  onRetry?: (info: RetryInfo) => void;
  /** Told how many bytes of the body the connection has taken so far (uploads). */
  onProgress?: (bytesSent: number) => void;
}

/**
 * A request body serialized ahead of its call, from `value` (see prepareCreateShipments): a batch prepares the next
 * request while its slot is busy, so a free slot is refilled without serializing first. Used only by a call made
 * with that very `value`.
 */
export interface PreparedJson<T> {
  readonly value: T;
  readonly bytes: Buffer;
}

export interface RetryInfo {
  /** The attempt about to be made (2 for the first retry). */
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface PageQuery {
  page?: number;
  limit?: number;
}

/** Result of POST /api/v1/addresses/verify: 200 is valid; 400 carries the verdict and maybe a revised address. */
export type VerifyOutcome = { valid: true } | { valid: false; result: VerifyFailureBody };

/** A multipart body built elsewhere (photos/), streamed from disk with a known length. */
export interface MultipartBody {
  contentType: string;
  /** Exact byte length of the whole body, sent as Content-Length. */
  length: number;
  /** A fresh stream of the body each call (a retry before sending needs a new one). */
  open(): Readable;
}

/** A request `shipctl api` builds: any method and path, as long as it stays on the base URL's origin. */
export interface RawRequest {
  method: HttpMethod;
  /** Absolute, on the base URL's origin: the client refuses any other, so the token goes nowhere else. */
  url: URL;
  /** More headers, names in lower case; never Authorization. */
  headers: Record<string, string>;
  /** Sent as the JSON body when defined. */
  json?: unknown;
  /** Safe to send again after it may have arrived (a GET without a method override); else the POST rule applies. */
  idempotent: boolean;
}

/** The service's answer as it came; `failure` is set when its status is an error (what a command would throw). */
export interface RawAnswer {
  response: WireResponse;
  failure?: ApiFailure;
}

/** An endpoint's method: the builder's arguments, then the call's options; the answer the CallSpec reads. */
export type EndpointMethod<B> = B extends (...args: infer A) => CallSpec<infer R> ? (...args: [...A, CallOptions?]) => Promise<R> : never;

/** One method per endpoint of ENDPOINTS (api/endpoints.ts), under its name. */
export type EndpointMethods = { [K in EndpointName]: EndpointMethod<(typeof ENDPOINTS)[K]["build"]> };

export interface ApiClient extends EndpointMethods {
  /** GET a `links.next` of a page of `kind` read earlier: its path and query, on the base URL (api/pagination-link.ts). */
  nextPage<T extends "shipments" | "addresses">(
    kind: T,
    url: string,
    options?: CallOptions,
  ): Promise<PageOf<T extends "shipments" ? StoredShipment : StoredAddress>>;
  /**
   * Any request under the base URL (`shipctl api`), with the same retry rules, redaction and debug lines. An error
   * status comes back with its answer (RawAnswer.failure) so the caller can show the body; a network failure throws.
   */
  rawRequest(request: RawRequest, options?: CallOptions): Promise<RawAnswer>;
  /**
   * Service time minus local time (ms), from the `Date` header of the latest answer (see api/service-clock.ts);
   * undefined before any answer carried one. Optional so fakes in tests need not model the service's clock.
   */
  serviceClockOffsetMs?(): number | undefined;
  /** Closes kept-alive connections. */
  close(): Promise<void>;
}

export interface ApiClientOptions {
  baseUrl: string;
  token: string;
  userAgent: string;
  clock: import("../clock.js").Clock;
  /** Receives one line per request/retry when --debug is on; the token must already be redacted. */
  debug?: (line: string) => void;
  /** Aborts every read and every call safe to repeat in flight (the first Ctrl-C: the run is stopping). */
  signal?: AbortSignal;
  /**
   * Aborts the writes that must not be repeated: at a second Ctrl-C, or when a stopping run has waited long enough
   * for their answers. They then stay in flight in the ledger.
   */
  writeSignal?: AbortSignal;
  /** Retries for calls that are safe to retry (default 4). */
  retries?: number;
  /** Source of the backoff jitter, [0, 1) (default Math.random); tests pass a fixed one. */
  random?: () => number;
  connectTimeoutMs?: number;
  /** Time allowed for the response headers and between body chunks. */
  responseTimeoutMs?: number;
  /** Proxy variables and the profile's CA file (api/network.ts); without it, direct connections. */
  network?: import("./network.js").NetworkOptions;
  /** The wire itself, instead of undici (unit tests' stubs); `network` and the timeouts then do not apply. */
  transport?: Transport;
}
