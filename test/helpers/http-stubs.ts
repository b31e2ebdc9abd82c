// The one HTTP stand-in of unit tests, at the transport under the real ApiClient (as the GitHub CLI's httpmock):
// a test registers the answers it expects, "METHOD /path" each, and the registry fails the test on a request no stub
// matches and, when the test ends, on a stub no request used. The client's own endpoint code, retries and error
// mapping run as they do against the service.
import type { Readable } from "node:stream";
import { onTestFinished } from "vitest";
import { createApiClient } from "../../src/api/client.js";
import type { ApiClient, ApiClientOptions } from "../../src/api/client-types.js";
import type { Transport, WireRequest, WireResult } from "../../src/api/transport.js";
import type { Clock } from "../../src/clock.js";

/** A request as a stub sees it: its route ("POST /api/v1/shipments"), query and body. */
export interface StubRequest {
  route: string;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: Buffer;
  /** The body read as JSON (undefined when there is none). */
  json<T = unknown>(): T;
}

export type Responder = (request: StubRequest) => WireResult | Promise<WireResult>;

interface Stub {
  route: string;
  respond: Responder;
  /** Requests it still takes (Infinity: any number). */
  left: number;
  /** May end unused (a stand-in service's routes, of which a test uses some). */
  optional: boolean;
}

export interface HttpStubs {
  /**
   * Answers the next request to `route` ("METHOD /path", no query; `{name}` stands for any one path segment) with
   * `respond`; `times` requests (default 1), or any number, none included, with `{ times: "any" }`.
   */
  on(route: string, respond: Responder | WireResult, options?: { times?: number | "any" }): HttpStubs;
  /** Every request received, in order (those no stub matched too). */
  requests: StubRequest[];
  /** The requests to `route`, in order. */
  sent(route: string): StubRequest[];
  transport: Transport;
  /** Throws when a request matched no stub, or a stub was left unused. Called when the test ends. */
  verify(): void;
}

/** `verifyAtEnd: false` only for the registry's own tests, which call verify() themselves. */
export function httpStubs(options: { verifyAtEnd?: boolean } = {}): HttpStubs {
  const stubs: Stub[] = [];
  const requests: StubRequest[] = [];
  const unmatched: string[] = [];
  const registry: HttpStubs = {
    on(route, respond, options = {}) {
      const times = options.times ?? 1;
      stubs.push({
        route,
        respond: typeof respond === "function" ? respond : () => respond,
        left: times === "any" ? Infinity : times,
        optional: times === "any",
      });
      return registry;
    },
    requests,
    sent: (route) => requests.filter((r) => r.route === route),
    transport: {
      async send(wire) {
        const request = await stubRequest(wire);
        requests.push(request);
        const stub = stubs.find((s) => s.left > 0 && routeMatches(s.route, request.route));
        if (!stub) {
          unmatched.push(request.route);
          throw new Error(`no stub for ${request.route} (stubs: ${stubs.map((s) => s.route).join(", ") || "none"})`);
        }
        stub.left -= 1;
        if (wire.signal.aborted) return { ok: false, failure: { written: false, aborted: true, cause: wire.signal.reason } };
        return stub.respond(request);
      },
      proxyFor: () => undefined,
      close: async () => undefined,
    },
    verify() {
      if (unmatched.length > 0) throw new Error(`requests no stub matched: ${unmatched.join("; ")}`);
      const unused = stubs.filter((s) => !s.optional && s.left > 0);
      if (unused.length > 0) throw new Error(`stubs not used up: ${unused.map((s) => `${s.route} (${s.left} left)`).join("; ")}`);
    },
  };
  if (options.verifyAtEnd !== false) onTestFinished(() => registry.verify());
  return registry;
}

/** The real ApiClient over `stubs`, on the run's clock and signals, with a jitter fixed at half the bound. */
export function stubbedClient(
  stubs: HttpStubs,
  clock: Clock,
  options: Pick<ApiClientOptions, "signal" | "writeSignal" | "retries" | "debug"> & { token?: string } = {},
): ApiClient {
  return createApiClient({
    ...options,
    baseUrl: "http://127.0.0.1:9",
    token: options.token ?? "test-token",
    userAgent: "shipctl/0.0.0-test",
    clock,
    random: () => 0.5,
    transport: stubs.transport,
  });
}

/** Answers a stub gives. */
export const reply = {
  json: (status: number, body: unknown, headers: Record<string, string> = {}): WireResult => ({
    ok: true,
    response: { status, statusText: "", headers: { "content-type": "application/json", ...headers }, text: JSON.stringify(body) },
  }),
  /** 204 (or another status) without a body. */
  empty: (status = 204): WireResult => ({ ok: true, response: { status, statusText: "", headers: {}, text: "" } }),
  /** The connection failed after the request was written: the service may have applied it, its answer is lost. */
  lost: (): WireResult => ({ ok: false, failure: { written: true, aborted: false, code: "ECONNRESET", cause: new Error("socket hang up") } }),
  /** The run stopped the request after it was written (a second Ctrl-C): it may have arrived. */
  interrupted: (): WireResult => ({ ok: false, failure: { written: true, aborted: true, cause: new Error("interrupted") } }),
  /** The connection was refused: nothing reached the service. */
  refused: (): WireResult => ({ ok: false, failure: { written: false, aborted: false, code: "ECONNREFUSED", cause: new Error("connect ECONNREFUSED") } }),
};

/** A page of the contract's lists holding `data`, with a next link when `next` is given. */
export function page<T>(data: T[], options: { page?: number; next?: string; path?: string } = {}) {
  const n = options.page ?? 1;
  return {
    data,
    links: { first: "http://127.0.0.1:9/x?page=1", last: null, prev: null, next: options.next ?? null },
    meta: { current_page: n, from: data.length ? 1 : null, path: options.path ?? "http://127.0.0.1:9/x", per_page: 50, to: data.length ? data.length : null },
  };
}

function routeMatches(stubRoute: string, route: string): boolean {
  if (!stubRoute.includes("{")) return stubRoute === route;
  const pattern = stubRoute.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join("[^/]+");
  return new RegExp(`^${pattern}$`).test(route);
}

async function stubRequest(wire: WireRequest): Promise<StubRequest> {
  const body = await readBody(wire.body?.());
  wire.onBodyProgress?.(body.length);
  return {
    route: `${wire.method} ${wire.url.pathname}`,
    method: wire.method,
    path: wire.url.pathname,
    query: wire.url.searchParams,
    headers: wire.headers,
    body,
    json: <T>() => (body.length === 0 ? undefined : JSON.parse(body.toString("utf8"))) as T,
  };
}

async function readBody(body: Buffer | Readable | undefined): Promise<Buffer> {
  if (body === undefined) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
