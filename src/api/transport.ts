// One HTTP attempt over keep-alive undici dispatchers, and the one fact retries depend on: whether the request
// was written onto a connection (the service may have received it) or failed before (refused, DNS, TLS, connect
// timeout, a proxy that refused the tunnel: nothing reached the service, so even a POST can be sent again).
// With HTTPS_PROXY/HTTP_PROXY set, requests go through an undici ProxyAgent, as network.ts's proxyFor decides
// (NO_PROXY honoured, loopback hosts never proxied); a failure says which proxy it went through.
import { Transform, type Readable } from "node:stream";
import { Agent, Pool, ProxyAgent, type Dispatcher } from "undici";
import { readText } from "./answer-text.js";
import { proxyFor, proxySettings, readCaFile, shownProxy, tunnelStatus, withDefaultCas, type NetworkOptions, type ProxyRoute, type ProxyShown } from "./network.js";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface WireRequest {
  method: HttpMethod;
  url: URL;
  headers: Record<string, string>;
  /** Called once per attempt: a retry needs a fresh stream. */
  body?: () => Buffer | Readable;
  signal: AbortSignal;
  /** Bytes of the body handed to the connection so far (uploads). */
  onBodyProgress?: (bytesSent: number) => void;
}

export interface WireResponse {
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface WireFailure {
  /**
   * The request head was being written onto a connection when it failed: the service may have received it.
   * False only when the failure came before (no connection could be made, or the attempt was aborted before).
   */
  written: boolean;
  /** The attempt ended because the signal aborted. */
  aborted: boolean;
  /** The body's own stream failed (a file vanished), as opposed to the network. */
  bodyError?: unknown;
  /** The system or undici error code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT...). */
  code?: string;
  cause: unknown;
  /** The proxy the attempt went through, when one did. */
  proxy?: ProxyShown;
  /** The proxy answered the tunnel's CONNECT with this status instead of 200 (407, 403, 502...). */
  proxyStatus?: number;
  /** The proxy took the connection but did not answer CONNECT within this many ms (the connect timeout). */
  proxySilentMs?: number;
}

export type WireResult = { ok: true; response: WireResponse } | { ok: false; failure: WireFailure };

export interface Transport {
  send(request: WireRequest): Promise<WireResult>;
  /** The proxy a request to `url` goes through (for --debug); undefined when direct. */
  proxyFor(url: URL): ProxyShown | undefined;
  close(): Promise<void>;
}

export interface TransportOptions {
  connectTimeoutMs: number;
  /** Time allowed for the response headers, and between chunks of the response body. */
  responseTimeoutMs: number;
  /** Proxy variables and the profile's CA file; without it, connections are direct and trust Node's CAs only. */
  network?: NetworkOptions;
}

/** Carried in undici's `opaque` option, so the interceptor below can tell this attempt when it is written. */
class WriteTracker {
  written = false;
}

/**
 * undici calls onRequestStart right before it writes the request head onto a connected socket; an attempt that
 * fails without it never left this machine. Connect errors (ECONNREFUSED, ENOTFOUND, TLS, ConnectTimeoutError)
 * fail before it, socket resets and response timeouts after. Through a proxy the same holds: the CONNECT and the
 * TLS handshake inside the tunnel are part of connecting, and onRequestStart comes when the request itself is
 * written into the tunnel.
 */
const trackWrites: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) => {
  const tracker = (options as { opaque?: unknown }).opaque;
  if (!(tracker instanceof WriteTracker)) return dispatch(options, handler);
  const observed: Dispatcher.DispatchHandler = {
    onRequestStart: (controller, context) => {
      tracker.written = true;
      handler.onRequestStart?.(controller, context);
    },
    onRequestUpgrade: (...args) => handler.onRequestUpgrade?.(...args),
    onResponseStart: (...args) => handler.onResponseStart?.(...args),
    onResponseData: (...args) => handler.onResponseData?.(...args),
    onResponseEnd: (...args) => handler.onResponseEnd?.(...args),
    onResponseError: (...args) => handler.onResponseError?.(...args),
  };
  return dispatch(options, observed);
};

export function createTransport(options: TransportOptions): Transport {
  const caFile = options.network?.caFile;
  // TLS settings for connections to the service, direct or inside a proxy's tunnel.
  const tlsOptions = { timeout: options.connectTimeoutMs, ...(caFile ? { ca: withDefaultCas(readCaFile(caFile, "caFile")) } : {}) };
  const agentOptions = {
    connect: tlsOptions,
    headersTimeout: options.responseTimeoutMs,
    bodyTimeout: options.responseTimeoutMs,
    // Batches send requests seconds apart (prompts, progress): keep the connection for a while.
    keepAliveTimeout: 10_000,
  };
  const direct = new Agent(agentOptions);
  const settings = options.network ? proxySettings(options.network.env) : undefined;
  const agents: Dispatcher[] = [direct];
  const directDispatcher = direct.compose(trackWrites);
  // One agent per proxy URL (HTTP_PROXY and HTTPS_PROXY are often the same), made when first needed.
  const proxied = new Map<string, Dispatcher>();
  const dispatcherFor = (route: ProxyRoute | undefined): Dispatcher => {
    if (!route) return directDispatcher;
    let dispatcher = proxied.get(route.uri);
    if (!dispatcher) {
      const agent = new ProxyAgent({
        ...agentOptions,
        uri: route.uri,
        requestTls: tlsOptions,
        proxyTls: { timeout: options.connectTimeoutMs },
        // The CONNECT is part of connecting, so the connect timeout bounds its answer too: undici's own client to
        // the proxy would wait for its default headers timeout (300 s), and each retry as long again.
        clientFactory: (origin, factoryOptions) => new Pool(origin, { ...factoryOptions, headersTimeout: options.connectTimeoutMs }),
      });
      agents.push(agent);
      dispatcher = agent.compose(trackWrites);
      proxied.set(route.uri, dispatcher);
    }
    return dispatcher;
  };
  // undici requests not yet settled. One aborted while connecting stays queued until the connect ends, and a
  // graceful close() would wait for it (up to the connect timeout) after the command has already given up.
  const unsettled = new Set<Promise<unknown>>();

  return {
    async send(request) {
      const tracker = new WriteTracker();
      let bodyError: unknown;
      const body = request.body?.();
      const sent =
        body === undefined || Buffer.isBuffer(body) ? body : countBytes(body, request.onBodyProgress, (err) => (bodyError = err));
      const route = proxyFor(request.url, settings);
      try {
        const pending = dispatcherFor(route).request({
          origin: request.url.origin,
          path: `${request.url.pathname}${request.url.search}`,
          method: request.method,
          headers: request.headers,
          body: sent,
          signal: request.signal,
          opaque: tracker,
        });
        unsettled.add(pending);
        const forget = () => unsettled.delete(pending);
        pending.then(forget, forget);
        const answer = await untilAborted(pending, request.signal);
        const text = await readText(answer.body);
        return {
          ok: true,
          response: { status: answer.statusCode, statusText: answer.statusText ?? "", headers: answer.headers, text },
        };
      } catch (cause) {
        if (sent !== undefined && !Buffer.isBuffer(sent)) sent.destroy();
        const failure: WireFailure = { written: tracker.written, aborted: request.signal.aborted, bodyError, code: codedCause(cause)?.code, cause };
        if (route) {
          failure.proxy = shownProxy(route);
          failure.proxyStatus = tracker.written ? undefined : tunnelStatus(cause);
          // Before the request was written, the only answer awaited was the proxy's to CONNECT.
          if (!tracker.written && failure.code === "UND_ERR_HEADERS_TIMEOUT") failure.proxySilentMs = options.connectTimeoutMs;
        }
        return { ok: false, failure };
      }
    },
    proxyFor: (url) => {
      const route = proxyFor(url, settings);
      return route && shownProxy(route);
    },
    close: async () => {
      await Promise.all(agents.map((agent) => (unsettled.size > 0 ? agent.destroy() : agent.close())));
    },
  };
}

/** Rejects as soon as the signal aborts, even while undici is still connecting (it would wait for the connect). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  // Once given up on, the request's own failure is nobody's to hear.
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}

/**
 * Passes the body through, counting the bytes undici takes. The source's own errors (a file that vanished) are
 * recorded as such: undici destroying the pass-through after a network error ends the source without one.
 */
function countBytes(source: Readable, onProgress: ((bytesSent: number) => void) | undefined, onSourceError: (err: unknown) => void): Readable {
  let sent = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sent += chunk.length;
      onProgress?.(sent);
      callback(null, chunk);
    },
  });
  source.on("error", (err) => {
    onSourceError(err);
    counter.destroy(err);
  });
  counter.on("close", () => source.destroy());
  source.pipe(counter);
  return counter;
}

/**
 * The first error among `err`, the errors it aggregates (Node's happy-eyeballs connect) and its causes (a proxy's
 * tunnel wraps them) whose code `wanted` accepts (any, by default): undici's and Node's errors carry `code`.
 */
export function codedCause(err: unknown, wanted: (code: string) => boolean = () => true, depth = 0): { code: string; error: unknown } | undefined {
  if (typeof err !== "object" || err === null || depth > 5) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && wanted(code)) return { code, error: err };
  const inner = (err as { errors?: unknown }).errors;
  for (const e of Array.isArray(inner) ? inner : []) {
    const found = codedCause(e, wanted, depth + 1);
    if (found) return found;
  }
  const cause = (err as { cause?: unknown }).cause;
  return cause === err ? undefined : codedCause(cause, wanted, depth + 1);
}
