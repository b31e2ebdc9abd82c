// What a route handler receives: the request, its organization, and the few services of the pipeline.
import type { ShipmentShape } from "./defaults.js";
import type { Instant, Org } from "./model.js";
import type { SandboxState } from "./state.js";
import type { Reply, RequestStream } from "./http.js";
import type { ReceivedLog, ReceivedRequest } from "./received.js";

export interface RequestContext {
  /** The request: its headers, and its body to read (a replay of it under a slow-apply fault). */
  req: RequestStream;
  state: SandboxState;
  org: Org;
  /** Captured path parameters, in pattern order. */
  params: string[];
  path: string;
  query: URLSearchParams;
  /** Scheme and Host header as the sandbox was reached (`http://host:port`, from the Host header), for page links. */
  origin: string;
  /** The organization's clock, in epoch milliseconds. */
  now(): number;
  /** What records written now are stamped with (created_at, updated_at): now() less the created_at lag, whole seconds. */
  stamp(): Instant;
  /** The state changed: the pipeline writes the --state file before the answer leaves. */
  changed(): void;
  /** Counts request body bytes read, for the received-requests log. */
  countBytes(n: number): void;
  /** The log entry of this request (undefined on the control surface). */
  entry: ReceivedRequest | undefined;
  received: ReceivedLog;
  /** The base clock of the sandbox (real time unless the embedder replaced it). */
  baseNow(): Date;
  /** The longest apply time the sandbox declares (--apply-max). */
  applyMaxMs: number;
  /** How stored shipments name their addresses on a read (--shipment-shape). */
  shipmentShape: ShipmentShape;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

export interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

export type RouteMatch = { route: Route; params: string[] } | { allowed: string[] } | undefined;

/** The route for method + path; `{allowed}` when the path exists with other methods (405); undefined for 404. */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.method === method) return { route, params: m.slice(1) };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { allowed } : undefined;
}
