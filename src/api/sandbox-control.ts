// A typed client for a running shipctl sandbox's control surface (/_sandbox/*, docs/sandbox.md): the `shipctl
// sandbox status|clock|payment|tick` verbs and the tests' helper both use it. It goes through the API layer's caller,
// so it gets the same timeouts, --debug lines, token redaction and error mapping as every request to the service.
// Only ever pointed at something already known to be a sandbox (rehearsal/running-sandbox.ts asks first).
import * as z from "zod";
import { StoredShipment } from "../contract/index.js";
import type { CallSpec } from "./call.js";
import { expectJson } from "./endpoints.js";
import { DEFAULT_CONNECT_TIMEOUT_MS, openCaller } from "./client.js";
import type { ApiClientOptions } from "./client-types.js";
import type { HttpMethod } from "./transport.js";
import { USER_AGENT } from "./user-agent.js";
import type { PaymentState } from "./payment-states.js";

export const SandboxClock = z.looseObject({
  now: z.string(),
  now_ms: z.number(),
  mode: z.enum(["real", "frozen"]),
  offset_ms: z.number(),
  /** How far behind `now` records are stamped (created_at, updated_at); the Date header keeps `now`. */
  created_at_lag_ms: z.number(),
});
export type SandboxClock = z.infer<typeof SandboxClock>;

export const SandboxPayment = z.looseObject({ state: z.string(), remaining: z.number().optional() });
export type SandboxPayment = z.infer<typeof SandboxPayment>;

export const TickResult = z.looseObject({
  at: z.string(),
  moved: z.array(z.looseObject({ id: z.number(), from: z.number(), from_name: z.string(), to: z.number(), to_name: z.string() })),
  waiting: z.array(z.looseObject({ status: z.number(), status_name: z.string(), count: z.number(), waits_for: z.string() })),
});
export type TickResult = z.infer<typeof TickResult>;

/** One way to set the clock (PUT /_sandbox/clock): a moment (frozen there, or ticking from it), a shift, or a lag. */
export type ClockChange =
  | { at: string; ticking?: boolean; created_at_lag_ms?: number }
  | { advance_ms: number; created_at_lag_ms?: number }
  | { offset_ms: number; created_at_lag_ms?: number }
  | { created_at_lag_ms: number };

/** The control surface's calls, one per route of /_sandbox (docs/sandbox.md). */
export type SandboxControl = ReturnType<typeof createSandboxControl>;

/** Proxy variables and the profile's CA file in `network` (api/network.ts). */
export type SandboxControlOptions = Pick<ApiClientOptions, "baseUrl" | "token" | "clock" | "debug" | "signal" | "network">;

export function createSandboxControl(options: SandboxControlOptions) {
  // The connect timeout stays the default: SHIPCTL_CONNECT_TIMEOUT is for the service's requests.
  const { call, close } = openCaller({ ...options, userAgent: USER_AGENT, connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS });
  return {
    /** Moves a shipment to a status (number or name); Delivered/Arrived record delivered_at/arrived_at (`at` or now). */
    setStatus: async (id: number, status: number | string, at?: string): Promise<StoredShipment> =>
      (await call(spec("POST", `/_sandbox/shipments/${id}/status`, z.looseObject({ data: StoredShipment }), true, { status, at }))).data,
    clock: () => call(spec("GET", "/_sandbox/clock", SandboxClock, true)),
    // Moving the clock by a shift is not safe to send twice; setting it to a moment is.
    setClock: (change: ClockChange) => call(spec("PUT", "/_sandbox/clock", SandboxClock, !("advance_ms" in change), change)),
    /** Back to real time, records stamped at it. */
    resetClock: () => call(spec("DELETE", "/_sandbox/clock", SandboxClock, true)),
    payment: () => call(spec("GET", "/_sandbox/payment-method", SandboxPayment, true)),
    setPayment: (state: PaymentState, count?: number) => call(spec("PUT", "/_sandbox/payment-method", SandboxPayment, true, { state, count })),
    /** One lifecycle step for every shipment the service would move by itself; a second would move them one further. */
    tick: () => call(spec("POST", "/_sandbox/tick", TickResult, false)),
    close,
  };
}

/** `json`'s undefined members (an optional `at` or `count` not given) are left out of the body, as JSON leaves them. */
function spec<S extends z.ZodType>(method: HttpMethod, path: string, schema: S, idempotent: boolean, json?: unknown): CallSpec<z.infer<S>> {
  return {
    method,
    path,
    idempotent,
    json,
    resource: path.startsWith("/_sandbox/shipments/") ? `shipment ${path.split("/")[3]}` : undefined,
    interpret: expectJson(schema, (value: z.infer<S>) => value),
  };
}
