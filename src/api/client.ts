// The ApiClient over undici: one keep-alive Agent for the whole run, the bearer token on every request, answers
// checked against the contract, typed errors, and retries only where sending again is safe (see call.ts).
import type { PageOf } from "../contract/index.js";
import { UsageError } from "../errors.js";
import { BACKOFF } from "./backoff.js";
import { createCaller, type Caller, type CallSpec } from "./call.js";
import * as endpoints from "./endpoints.js";
import { ENDPOINTS } from "./endpoint-table.js";
import { followableLink } from "./pagination-link.js";
import { createRedactor } from "./redact.js";
import { observingDates } from "./service-clock.js";
import { createTransport, type WireResponse } from "./transport.js";
import { CONNECT_TIMEOUT_MAX_MS, connectTimeoutFrom } from "./network.js";
import { isApiFailure } from "./api-errors.js";
import type { ApiClient, ApiClientOptions, CallOptions, EndpointMethods, RawRequest } from "./client-types.js";
import type { ItemOf, ListKind } from "./client-types.js";

export const DEFAULT_CONNECT_TIMEOUT_MS = CONNECT_TIMEOUT_MAX_MS;
/** Per answer: the headers must come, and the body must keep flowing, within this. */
export const DEFAULT_RESPONSE_TIMEOUT_MS = 60_000;

export function createApiClient(options: ApiClientOptions): ApiClient {
  const { call, baseUrl, redact, serviceClockOffsetMs, close } = openCaller(options);
  return {
    ...endpointMethods(call),
    nextPage: async <K extends ListKind>(kind: K, url: string, callOptions?: CallOptions) => {
      // Only the link's path and query are taken, and only for the endpoint being read: the token stays on the base URL.
      const list = kind === "shipments" ? endpoints.listShipments() : endpoints.listAddresses();
      const target = followableLink(url, baseUrl, redact, list.path);
      // The spec built for `kind` validates items of that kind, which is what the conditional return type says.
      type Result = PageOf<ItemOf<K>>;
      return call({ ...list, path: target.pathname, url: target } as unknown as CallSpec<Result>, callOptions);
    },
    rawRequest: async (request: RawRequest, callOptions?: CallOptions) => {
      // Checked here too, whatever the caller did: the token is sent to the base URL's origin and nowhere else.
      if (request.url.origin !== baseUrl.origin) {
        throw new UsageError(`${redact(request.url.origin)} is not the base URL's origin (${redact(baseUrl.origin)}): shipctl sends the token only there`);
      }
      let last: WireResponse | undefined;
      try {
        return { response: await call(rawCall(request, (response) => (last = response)), callOptions) };
      } catch (err) {
        // An error status: the answer it was made from goes back with it (a network failure has no status).
        if (isApiFailure(err) && last && err.status === last.status) return { response: last, failure: err };
        throw err;
      }
    },
    serviceClockOffsetMs,
    close,
  };
}

/** The caller over its own transport, which the client's methods and the sandbox's control surface go through. */
export function openCaller(options: ApiClientOptions) {
  const redact = createRedactor(options.token);
  const baseUrl = parseBaseUrl(options.baseUrl, redact);
  const responseTimeoutMs = options.responseTimeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS;
  // Closing ends whatever is still in flight at once and silently: a request the run no longer waits for is not a
  // network failure to retry.
  const closing = new AbortController();
  let closed: Promise<void> | undefined;
  const transport = observingDates(
    options.transport ??
    createTransport({
      connectTimeoutMs: options.connectTimeoutMs ?? (options.network && connectTimeoutFrom(options.network.env)) ?? DEFAULT_CONNECT_TIMEOUT_MS,
      responseTimeoutMs,
      network: options.network,
    }),
    options.clock,
  );
  const call = createCaller({
    ...options,
    transport,
    baseUrl,
    random: options.random ?? Math.random,
    retries: options.retries ?? BACKOFF.defaultRetries,
    responseTimeoutMs,
    redact,
    closing: closing.signal,
  });
  const close = () => {
    closing.abort(new Error("the client was closed"));
    closed ??= transport.close();
    return closed;
  };
  return { call, baseUrl, redact, serviceClockOffsetMs: transport.offsetMs, close };
}

/** A method per endpoint of the table: its arguments build the CallSpec, and the one after them is the call's options. */
function endpointMethods(call: Caller): EndpointMethods {
  const methods: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [name, { build }] of Object.entries(ENDPOINTS)) {
    const arity = build.length;
    methods[name] = (...args) => call((build as (...a: unknown[]) => CallSpec<unknown>)(...args.slice(0, arity)), args[arity] as CallOptions | undefined);
  }
  return methods as EndpointMethods;
}

/**
 * The CallSpec of a request `shipctl api` builds: any 2xx is the result, as it came; any other status goes to the
 * generic mapping (error-map.ts), so retries and exit codes are those of every command. `answered` sees every answer,
 * so the caller still has the body of the one a failure was made from.
 */
function rawCall(request: RawRequest, answered: (response: WireResponse) => void): CallSpec<WireResponse> {
  return {
    method: request.method,
    path: request.url.pathname,
    url: request.url,
    json: request.json,
    headers: request.headers,
    idempotent: request.idempotent,
    interpret(response) {
      answered(response);
      return response.status >= 200 && response.status < 300 ? { done: response } : undefined;
    },
  };
}

function parseBaseUrl(text: string, redact: (s: string) => string): URL {
  if (!URL.canParse(text)) throw new UsageError(`The base URL "${redact(text)}" is not a URL`, { hint: "Give the service's address, e.g. https://api.example.com" });
  const url = new URL(text);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new UsageError(`The base URL "${redact(text)}" must start with https:// (or http:// for a local sandbox)`);
  }
  return url;
}
