// One API call: attempts, the retry rules, backoff, interruption and the --debug lines.
// Retry rules (the service has no idempotency key, so a lost answer to a POST cannot be repeated safely):
// - a request that never left this machine (refused, a temporary DNS failure EAI_AGAIN, connect timeout, a proxy
//   that never answers CONNECT) is retried, whatever the method; but not a host name that does not exist (ENOTFOUND:
//   the resolver's final answer, so the next attempt would get it again), nor
//   one refused for the service's TLS certificate (the next attempt would meet the same certificate), nor one whose
//   proxy asked for credentials (407: the next attempt would carry the same ones) or refused the tunnel by its policy
//   (403: the same destination would be refused again); a proxy's 502 or 503 (it could not reach the service) is;
// - 429 is retried whatever the method: the service refused the request, so nothing was applied;
// - a dropped connection, a timeout or a 5xx after the request was written is retried only for idempotent calls
//   (reads, address verification, PATCH with a full body); a POST that creates or charges is never resent;
// - endpoints add their own (verify status 0, price session status 0), through `interpret`.
import type { ApiClientOptions, CallOptions, MultipartBody } from "./call-types.js";

/** A proxy's answers to CONNECT that the next attempt would meet again, with why (see the rules above). */
const PROXY_REFUSALS: Readonly<Record<number, string>> = {
  407: "the proxy wants credentials",
  403: "the proxy's policy refuses this destination",
};
import { ANSWER_TOO_LARGE } from "./answer-text.js";
import { BACKOFF, backoffDelay, parseRetryAfter } from "./backoff.js";
import { errorForResponse } from "./error-map.js";
import { messageOf } from "../errors.js";
import { BodyReadError, RequestInterruptedError, type ApiFailure, type RequestFacts } from "./api-errors.js";
import { networkError, networkReason } from "./network-error.js";
import { certificateError } from "./certificate-error.js";
import { checkWriteGuards } from "./write-gate.js";
import { cleanText, type Redactor } from "./redact.js";
import type { HttpMethod, Transport, WireRequest, WireResponse } from "./transport.js";

/** What an endpoint makes of an answer: a result, a failure worth retrying, or a final failure. */
export type Verdict<T> =
  | { done: T }
  /** Worth another attempt; `waitMs` (from Retry-After) replaces the backoff when given. */
  | { retry: ApiFailure; reason: string; waitMs?: number }
  | { fail: ApiFailure };

export interface CallSpec<T> {
  method: HttpMethod;
  /** Path under the base URL, without the query string, e.g. "/api/v1/shipments/12". */
  path: string;
  /** Encoded query string without "?", e.g. "page=2&limit=50". */
  query?: string;
  /** An absolute URL to call instead of base URL + path (pagination links, already checked). */
  url?: URL;
  json?: unknown;
  multipart?: MultipartBody;
  /**
   * More headers, names in lower case (`shipctl api -H`): they may replace Accept, Content-Type or User-Agent, never
   * Authorization, which is set last from the token.
   */
  headers?: Record<string, string>;
  /** Safe to send again after it may have arrived (reads, verify, PATCH with a full body). */
  idempotent: boolean;
  /** What a 404 means, e.g. "shipment 12". */
  resource?: string;
  /** POST /api/v1/checkout (402/403 are about payment). */
  checkout?: boolean;
  /**
   * Reads the answer: a 2xx into the result, and any status the endpoint knows better than the generic mapping
   * (verify's 400, the price session's 500). Returns undefined to let the generic mapping decide.
   */
  interpret(response: WireResponse, facts: RequestFacts, redact: Redactor): Verdict<T> | undefined;
}

/** The client's options as the caller takes them: defaults applied, the base URL parsed, the redactor made. */
export type CallerConfig = Pick<ApiClientOptions, "baseUrlSetting" | "profileFlag" | "token" | "userAgent" | "clock" | "debug" | "signal" | "writeSignal" | "writesInFlight"> &
  Required<Pick<ApiClientOptions, "random" | "retries" | "responseTimeoutMs">> & {
    transport: Transport;
    baseUrl: URL;
    redact: Redactor;
    /** Aborted when the client is closed: everything ends, nothing is retried. */
    closing?: AbortSignal;
  };

export type Caller = <T>(spec: CallSpec<T>, options?: CallOptions) => Promise<T>;

export function createCaller(config: CallerConfig): Caller {
  const basePath = config.baseUrl.pathname.replace(/\/+$/, "");
  const debug = config.debug;
  // --debug names each proxy once, on the first request line that went through it.
  const namedProxies = new Set<string>();
  const viaProxy = (url: URL): string => {
    const proxy = config.transport.proxyFor(url);
    if (!proxy || namedProxies.has(proxy.shown)) return "";
    namedProxies.add(proxy.shown);
    return ` via the proxy ${config.redact(proxy.shown)} (${proxy.variable})`;
  };

  // A write that must not be repeated counts as in flight from its first attempt to its end: a stopping run waits for
  // it, its retries included (config.writesInFlight).
  const call: Caller = async (spec, options) => {
    const writes = spec.idempotent ? undefined : config.writesInFlight;
    if (writes === undefined) return attempts(spec, options);
    writes.count++;
    try {
      return await attempts(spec, options);
    } finally {
      writes.count--;
    }
  };
  return call;

  async function attempts<T>(spec: CallSpec<T>, options: CallOptions = {}): Promise<T> {
    const url = spec.url ?? new URL(`${config.baseUrl.origin}${basePath}${spec.path}${spec.query ? `?${spec.query}` : ""}`);
    // Only --debug shows the URL: it is not worked out for every request of a batch otherwise.
    let shown: string | undefined;
    const shownUrl = () => (shown ??= config.redact(displayUrl(url))) + viaProxy(url);
    const path = config.redact(spec.url ? spec.url.pathname : `${basePath}${spec.path}`);
    const retries = Math.max(0, options.retries ?? config.retries);
    const signal = spec.idempotent
      ? anySignal([config.signal, options.signal, config.closing])
      : anySignal([config.writeSignal, config.closing]);
    const request: WireRequest = {
      method: spec.method,
      url,
      headers: headersFor(spec, config),
      body: bodyFor(spec),
      signal,
      onBodyProgress: options.onProgress,
    };
    const facts = (status: number | undefined, mayHaveArrived: boolean): RequestFacts => ({ method: spec.method, path, status, mayHaveArrived });
    let earlierMayHaveArrived = false;

    for (let attempt = 1; ; attempt++) {
      const tag = `attempt ${attempt}/${retries + 1}`;
      if (signal.aborted) throw interrupted(spec, facts(undefined, earlierMayHaveArrived), signal.reason);
      if (!spec.idempotent) checkWriteGuards();
      // hrtime, not performance.now(): the first use of `performance` loads Node's perf_hooks, which would delay the
      // first request of every command.
      const started = process.hrtime.bigint();
      const result = await config.transport.send(spec.multipart ? withMultipart(request, spec.multipart) : request);
      const elapsed = `${Math.round(Number(process.hrtime.bigint() - started) / 1e6)} ms`;

      let failure: ApiFailure;
      let retryable: boolean;
      let reason: string;
      let waitMs: number | undefined;
      let notRetried = "not retried: it may have arrived";

      if (!result.ok) {
        const wire = result.failure;
        const arrived: boolean = earlierMayHaveArrived || wire.written;
        if (wire.aborted) {
          debug?.(`${spec.method} ${shownUrl()} -> interrupted after ${elapsed} (${tag})`);
          throw interrupted(spec, facts(undefined, arrived), signal.reason);
        }
        if (wire.bodyError !== undefined) {
          debug?.(`${spec.method} ${shownUrl()} -> body read error after ${elapsed} (${tag})`);
          const why = messageOf(wire.bodyError);
          throw new BodyReadError(facts(undefined, earlierMayHaveArrived), `Could not read the body of ${spec.method} ${path} while sending it: ${cleanText(config.redact(why), 200)}`, {
            cause: wire.bodyError,
            hint: "The upload was cut short, so the service cannot have applied it. Check the files, then run the command again.",
          });
        }
        const certificate = certificateError(wire, { method: spec.method, path }, { url, redact: config.redact, earlierMayHaveArrived, profileFlag: config.profileFlag });
        if (certificate) {
          debug?.(`${spec.method} ${shownUrl()} -> ${certificate.code} after ${elapsed} (${tag}; not retried: the certificate)`);
          throw certificate;
        }
        reason = `${networkReason(wire, config.responseTimeoutMs, config.redact)}${wire.written ? " (after sending)" : " (before sending)"}`;
        failure = networkError(wire, { method: spec.method, path }, { ...config, origin: config.baseUrl.origin, idempotent: spec.idempotent, earlierMayHaveArrived });
        const proxyRefused = PROXY_REFUSALS[wire.proxyStatus ?? 0];
        const final =
          proxyRefused ??
          (wire.code === "ENOTFOUND" ? "the host name does not exist" : wire.code === ANSWER_TOO_LARGE ? "the answer is too large to read" : undefined);
        retryable = (!wire.written || spec.idempotent) && final === undefined;
        if (final) notRetried = `not retried: ${final}`;
        earlierMayHaveArrived = arrived;
      } else {
        const response = result.response;
        const statusLine = `${response.status}${response.statusText ? ` ${cleanText(response.statusText, 60)}` : ""}`;
        // A 2xx took effect, a 5xx may have; a 4xx is a refusal.
        const answeredFacts = facts(response.status, earlierMayHaveArrived || (response.status >= 200 && response.status < 300) || response.status >= 500);
        const verdict = spec.interpret(response, answeredFacts, config.redact) ?? genericVerdict(response, spec, path, earlierMayHaveArrived, config);
        if ("done" in verdict) {
          debug?.(`${spec.method} ${shownUrl()} -> ${statusLine} in ${elapsed} (${tag})`);
          return verdict.done;
        }
        if ("fail" in verdict) {
          debug?.(`${spec.method} ${shownUrl()} -> ${statusLine} in ${elapsed} (${tag}; not retried)`);
          throw verdict.fail;
        }
        failure = verdict.retry;
        reason = `${statusLine}: ${verdict.reason}`;
        retryable = true;
        waitMs = verdict.waitMs;
        earlierMayHaveArrived ||= failure.mayHaveArrived;
      }

      if (!retryable || attempt > retries) {
        debug?.(`${spec.method} ${shownUrl()} -> ${reason} in ${elapsed} (${tag}; ${retryable ? "no retries left" : notRetried})`);
        throw failure;
      }
      if (waitMs !== undefined && waitMs > BACKOFF.retryAfterCapMs) {
        debug?.(`${spec.method} ${shownUrl()} -> ${reason} in ${elapsed} (${tag}; Retry-After ${waitMs} ms is beyond the ${BACKOFF.retryAfterCapMs} ms shipctl waits)`);
        throw failure;
      }
      const delayMs = waitMs ?? backoffDelay(attempt, config.random);
      debug?.(`${spec.method} ${shownUrl()} -> ${reason} in ${elapsed} (${tag}; retrying in ${delayMs} ms)`);
      options.onRetry?.({ attempt: attempt + 1, delayMs, reason });
      // A stopping run starts nothing new. A write is retried only when it never arrived (a 429, a refused
      // connection), so the run's own signal ends its wait: it is reported not sent, not sent after the first Ctrl-C.
      const waitSignal = spec.idempotent ? signal : anySignal([signal, config.signal, options.signal]);
      try {
        await config.clock.sleep(delayMs, waitSignal);
      } catch (err) {
        if (waitSignal.aborted) throw interrupted(spec, facts(undefined, earlierMayHaveArrived), waitSignal.reason);
        throw err;
      }
    }
  }
}

/** The standard reading of a status no endpoint claimed: 429 always retried, 5xx only when idempotent. */
function genericVerdict<T>(response: WireResponse, spec: CallSpec<T>, path: string, earlierMayHaveArrived: boolean, config: CallerConfig): Verdict<T> {
  // The spec's method, resource, checkout and idempotence; the path as requested under the base URL, redacted.
  const error = errorForResponse(response, { ...spec, path, earlierMayHaveArrived, redact: config.redact, now: config.clock.now(), profileFlag: config.profileFlag });
  // Retry-After is honoured on any retried status (429, and 503 during maintenance).
  const waitMs = parseRetryAfter(response.headers["retry-after"], config.clock.now(), response.headers["date"]);
  if (response.status === 429) return { retry: error, reason: "rate limited", waitMs };
  if (response.status >= 500 && spec.idempotent) return { retry: error, reason: "service error", waitMs };
  return { fail: error };
}

function interrupted<T>(spec: CallSpec<T>, facts: RequestFacts, reason: unknown): RequestInterruptedError {
  const risk = facts.mayHaveArrived && !spec.idempotent ? ": the request may have been applied; check before sending it again" : "";
  return new RequestInterruptedError(facts, `Interrupted during ${facts.method} ${facts.path}${risk}`, { cause: reason });
}

function headersFor<T>(spec: CallSpec<T>, config: CallerConfig): Record<string, string> {
  // A Map: `-H` names are the user's text, and one named "__proto__" must stay a header.
  const headers = new Map([["accept", "application/json"], ["user-agent", config.userAgent]]);
  // No token, no Authorization header: only the sandbox tables probe asks anything without one.
  if (config.token !== "") headers.set("authorization", `Bearer ${config.token}`);
  if (spec.json !== undefined) headers.set("content-type", "application/json");
  if (spec.multipart) headers.set("content-length", String(spec.multipart.length));
  for (const [name, value] of Object.entries(spec.headers ?? {})) if (name !== "authorization") headers.set(name, value);
  return Object.fromEntries(headers);
}

function bodyFor<T>(spec: CallSpec<T>): WireRequest["body"] {
  if (spec.json === undefined) return undefined;
  const bytes = Buffer.from(JSON.stringify(spec.json), "utf8");
  return () => bytes;
}

/** Each attempt sends a fresh encoding of a multipart body, under the boundary its Content-Type names. */
function withMultipart(request: WireRequest, multipart: MultipartBody): WireRequest {
  const { contentType, stream } = multipart.open();
  return { ...request, headers: { ...request.headers, "content-type": contentType }, body: () => stream };
}

/** The URL without user:password, for debug lines. */
function displayUrl(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  return copy.href;
}

function anySignal(signals: Array<AbortSignal | undefined>): AbortSignal {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  if (present.length === 1) return present[0]!;
  if (present.length === 0) return new AbortController().signal;
  return AbortSignal.any(present);
}
