// The options and bodies of a call, which endpoints.ts and call.ts take: apart from the ApiClient (client-types.ts),
// which is derived from the endpoints, so no file of api/ imports its way round in a circle.
import type { Readable } from "node:stream";
import type { VerifyFailureBody } from "../contract/index.js";

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
