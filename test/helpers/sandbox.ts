// Starts the sandbox in-process on 127.0.0.1:0 for a test file, with a typed client for its control surface and
// fresh organizations for isolation: tests that share one sandbox each take their own org (own token, records,
// clock, switches and faults), so they never see each other's state.
//
//   const sb = await startTestSandbox();            // afterAll(() => sb.close())
//   const org = await sb.newOrg();                  // { url, token, control }: pass as runCli's `sandbox` option
//   await org.control.fault({ method: "POST", path: "/api/v1/shipments", kind: "reset-after" });
//   const r = await runCli(["shipment", "create", ...], { sandbox: org });
//   expect(await org.control.requests({ method: "POST", path: "/api/v1/shipments" })).toHaveLength(1);
import { request } from "undici";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../src/sandbox/server.js";
import type { ReceivedRequest } from "../../src/sandbox/received.js";
import type { FaultKind, ReportPhoto } from "../../src/sandbox/model.js";
import { createSandboxControl, type SandboxClock, type TickResult } from "../../src/api/sandbox-control.js";
import type { PaymentState } from "../../src/api/payment-states.js";
import { systemClock } from "../../src/clock.js";

export type { ReceivedRequest };

/** The control surface's clock, as the CLI's own client reads it (src/api/sandbox-control.ts). */
export type ClockView = SandboxClock;

export interface FaultSpec {
  /** HTTP method, or "*" (default). */
  method?: string;
  /** Path pattern: `*` is one segment, `**` any number ("/api/v1/reports/*\/*", "/api/v1/**"). */
  path: string;
  kind: FaultKind;
  /** How many matching requests it applies to (default 1). */
  count?: number;
  /** For kinds "latency" and "slow-apply" (at most the sandbox's apply_max_ms). */
  ms?: number;
  /** Seconds in Retry-After, for kind "429" (default 1). */
  retryAfter?: number;
}

export interface FaultView {
  id: number;
  method: string;
  path: string;
  kind: FaultKind;
  remaining: number;
  ms?: number;
  retry_after?: number;
}

export interface ChargeView {
  id: number;
  at: string;
  shipments: Record<string, number>;
  total: number;
}

export interface ReportView {
  id: number;
  shipment_id: number;
  set: 1 | 2;
  received_at: string;
  photos: ReportPhoto[];
}

export type { PaymentState };

export type ListOrder = "asc" | "desc" | "shuffled";

export interface SeedSpec {
  /** 1 to 100,000. */
  count: number;
  /** created_at of the first (oldest); default: the last is stamped now. */
  created_from?: string;
  /** Between consecutive created_at; default 1000. */
  created_step_ms?: number;
  /** Titles are "<prefix> 00001"...; default "Seed". */
  title_prefix?: string;
  /** Default Draft. */
  status?: number | string;
}

export interface SeedView {
  count: number;
  first_id: number;
  last_id: number;
  first_created_at: string;
  last_created_at: string;
}

/** Thrown when the control surface refuses a call (a bug in the test, usually). */
export class ControlError extends Error {}

export interface ControlClient {
  /** Moves a shipment to a status (number or name); Delivered/Arrived record delivered_at/arrived_at (`at` or now). */
  setStatus(shipmentId: number, status: number | string, at?: string): Promise<Record<string, unknown>>;
  /** Creates `count` shipments in one call (ascending ids, created_at one per second back from now by default). */
  seedShipments(spec: SeedSpec): Promise<SeedView>;
  /** Freezes the clock at `at` ("2025-01-31 00:00:00" UTC or ISO), or lets it tick from there with `ticking`. */
  setClock(at: string, options?: { ticking?: boolean }): Promise<ClockView>;
  /** Real time moved by `ms`. */
  offsetClock(ms: number): Promise<ClockView>;
  /** Moves the clock forward (or back, negative) by `ms`, frozen or not. */
  advanceClock(ms: number): Promise<ClockView>;
  /** Records are stamped `ms` behind the clock from now on (0 to stop); resetClock() also stops it. */
  lagCreatedAt(ms: number): Promise<ClockView>;
  resetClock(): Promise<ClockView>;
  clock(): Promise<ClockView>;
  setPaymentMethod(state: PaymentState, count?: number): Promise<{ state: string; remaining?: number }>;
  /** One lifecycle step for every shipment the service would move by itself (POST /_sandbox/tick). */
  tick(): Promise<TickResult>;
  setSubscription(active: boolean): Promise<void>;
  /** The next `count` verifications answer 400 status 0 (Rate Limited). */
  rateLimitVerifications(count: number): Promise<void>;
  /** The next `count` price sessions answer 500 with this Checkout Session Status (0 Rate Limited, default; 1 Failed). */
  failPriceSessions(count: number, status?: 0 | 1): Promise<void>;
  /** The order of GET /api/v1/shipments and /api/v1/addresses: asc (default), desc, or a fixed shuffle. */
  setListOrder(order: ListOrder): Promise<{ order: ListOrder }>;
  listOrder(): Promise<{ order: ListOrder }>;
  fault(spec: FaultSpec): Promise<FaultView>;
  faults(): Promise<FaultView[]>;
  clearFaults(): Promise<void>;
  /** What this organization sent, oldest first; optionally only one method and/or path. */
  requests(filter?: { method?: string; path?: string }): Promise<ReceivedRequest[]>;
  clearRequests(): Promise<void>;
  charges(): Promise<ChargeView[]>;
  reports(): Promise<ReportView[]>;
  priceSessions(): Promise<Array<{ id: number; at: string; shipments: Record<string, number>; total: number }>>;
  /** The sandbox's tables and the apply bound it declares (`apply_max_ms`). */
  tables(): Promise<{ sandbox: true; countries: unknown[]; services: unknown[]; apply_max_ms: number }>;
  organization(): Promise<Record<string, unknown>>;
  /** Empties the organization and puts every switch back (token kept). */
  reset(): Promise<void>;
}

export interface OrgTarget {
  url: string;
  token: string;
  control: ControlClient;
}

export interface TestSandbox extends RunningSandbox {
  /** Control client for organization 1 (the startup token). */
  control: ControlClient;
  /** A fresh organization: its own token, records and switches. Compatible with runCli's `sandbox` option. */
  newOrg(): Promise<OrgTarget>;
}

async function call<T>(url: string, token: string, method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<T> {
  const res = await request(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new ControlError(`${method} ${path} answered ${res.statusCode}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export function controlClient(url: string, token: string): ControlClient {
  const c = <T>(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown) => call<T>(url, token, method, path, body);
  const data = async <T>(path: string) => (await c<{ data: T }>("GET", path)).data;
  // The controls the CLI's sandbox verbs also use go through the CLI's own client: one client of the control surface.
  const shared = createSandboxControl({ baseUrl: url, token, clock: systemClock });
  return {
    setStatus: (id, status, at) => shared.setStatus(id, status, at),
    seedShipments: (spec) => c("POST", "/_sandbox/shipments/seed", spec),
    setClock: (at, options) => shared.setClock(options?.ticking ? { at, ticking: true } : { at }),
    offsetClock: (ms) => shared.setClock({ offset_ms: ms }),
    advanceClock: (ms) => shared.setClock({ advance_ms: ms }),
    lagCreatedAt: (ms) => shared.setClock({ created_at_lag_ms: ms }),
    resetClock: () => shared.resetClock(),
    clock: () => shared.clock(),
    setPaymentMethod: (state, count) => shared.setPayment(state, count),
    tick: () => shared.tick(),
    setSubscription: async (active) => void (await c("PUT", "/_sandbox/subscription", { active })),
    rateLimitVerifications: async (count) => void (await c("PUT", "/_sandbox/verifications/rate-limit", { count })),
    failPriceSessions: async (count, status = 0) => void (await c("PUT", "/_sandbox/price-sessions/failures", { count, status })),
    setListOrder: (order) => c("PUT", "/_sandbox/listing", { order }),
    listOrder: () => c("GET", "/_sandbox/listing"),
    fault: async (spec) => {
      const { retryAfter, ...rest } = spec;
      return (await c<{ data: FaultView }>("POST", "/_sandbox/faults", retryAfter === undefined ? rest : { ...rest, retry_after: retryAfter })).data;
    },
    faults: () => data("/_sandbox/faults"),
    clearFaults: async () => void (await c("DELETE", "/_sandbox/faults")),
    requests: (filter = {}) => {
      const q = new URLSearchParams();
      if (filter.method) q.set("method", filter.method);
      if (filter.path) q.set("path", filter.path);
      const qs = q.toString();
      return data(`/_sandbox/requests${qs ? `?${qs}` : ""}`);
    },
    clearRequests: async () => void (await c("DELETE", "/_sandbox/requests")),
    charges: () => data("/_sandbox/charges"),
    reports: () => data("/_sandbox/reports"),
    priceSessions: () => data("/_sandbox/price-sessions"),
    tables: () => c("GET", "/_sandbox/tables"),
    organization: () => c("GET", "/_sandbox/organization"),
    reset: async () => void (await c("POST", "/_sandbox/reset")),
  };
}

/** Every option of the sandbox but where it listens: e.g. `{ shipmentShape: "id" }` for how shipments read back. */
export async function startTestSandbox(options: Omit<SandboxOptions, "host" | "port"> = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({ ...options, host: "127.0.0.1", port: 0 });
  return {
    ...sandbox,
    control: controlClient(sandbox.url, sandbox.token),
    async newOrg() {
      const { token } = await call<{ token: string }>(sandbox.url, sandbox.token, "POST", "/_sandbox/organizations");
      return { url: sandbox.url, token, control: controlClient(sandbox.url, token) };
    },
  };
}
