// The options of a client and of a call, and the bodies a call takes, which endpoints.ts and call.ts use: apart from the
// ApiClient (client-types.ts), which is derived from the endpoints, so no file of api/ imports its way round in a circle.
import type { Readable } from "node:stream";
import type { Clock } from "../clock.js";
import type { VerifyFailureBody } from "../contract/index.js";
import type { NetworkOptions } from "./network.js";
import type { Transport } from "./transport.js";

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

/** A multipart body built elsewhere (reports/), streamed from disk with a known length. */
export interface MultipartBody {
  /** Exact byte length of the whole body, sent as Content-Length. */
  length: number;
  /** A fresh encoding for each attempt (a retry needs a new stream), with the Content-Type naming its boundary. */
  open(): { contentType: string; stream: Readable };
}

export interface ApiClientOptions {
  baseUrl: string;
  token: string;
  userAgent: string;
  clock: Clock;
  /** Receives one line per request/retry when --debug is on; the token must already be redacted. */
  debug?: (line: string) => void;
  /** Aborts every read and every call safe to repeat in flight (the first Ctrl-C: the run is stopping). */
  signal?: AbortSignal;
  /**
   * Aborts the writes that must not be repeated: at a second Ctrl-C, or when a stopping run has waited long enough
   * for their answers. They then stay in flight in the ledger.
   */
  writeSignal?: AbortSignal;
  /**
   * Counts the writes that must not be repeated while they are under way (sent, or between attempts, and not yet
   * answered): the first Ctrl-C speaks of requests already sent only when there are some.
   */
  writesInFlight?: { count: number };
  /** Retries for calls that are safe to retry (default 4). */
  retries?: number;
  /** Source of the backoff jitter, [0, 1) (default Math.random); tests pass a fixed one. */
  random?: () => number;
  /** Default: SHIPCTL_CONNECT_TIMEOUT of `network.env` when set (api/network.ts), else 10 s. */
  connectTimeoutMs?: number;
  /** Where the base URL was set, named when its host does not resolve ("SHIPCTL_BASE_URL", "--base-url", ...). */
  baseUrlSetting?: string;
  /**
   * How a command line names the profile in use (` --profile NAME`; empty for the default one): a hint's `shipctl
   * config set` command carries it, or as printed it would change another profile.
   */
  profileFlag?: string;
  /** Time allowed for the response headers and between body chunks. */
  responseTimeoutMs?: number;
  /** Proxy variables and the profile's CA file (api/network.ts); without it, direct connections. */
  network?: NetworkOptions;
  /** The wire itself, instead of undici (unit tests' stubs); `network` and the timeouts then do not apply. */
  transport?: Transport;
}
