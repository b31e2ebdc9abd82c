// The control surface under /_sandbox/ (never under /api/v1): what tests and rehearsals use to steer the sandbox.
// Every route needs a valid bearer token and acts on that token's organization. Documented in docs/sandbox.md.
import { SANDBOX_TABLES } from "../../contract/index.js";
import { body } from "../api/params.js";
import type { RequestContext, Route } from "../request-context.js";
import { empty, json, ruleFailed, type Reply } from "../http.js";
import type * as z from "zod";
import type { Fault, Org, PriceSession } from "../model.js";
import { serviceTimestamp } from "../org-clock.js";
import { validate } from "../request-validation.js";
import { clockView, resetClock, setClock } from "./clock-controls.js";
import { moveShipment, seedShipments } from "./shipment-controls.js";
import { tickShipments } from "./tick.js";
import { CountChange, FaultRequest, ListingChange, PaymentChange, PriceFailureChange, SubscriptionChange, TIMED_FAULTS } from "./control-schemas.js";

function createOrganization(ctx: RequestContext): Reply {
  const org = ctx.state.createOrg();
  ctx.changed();
  return json(201, { token: org.token, organization: org.id });
}

function organization(ctx: RequestContext): Reply {
  const org = ctx.org;
  return json(200, {
    organization: org.id,
    subscription: org.subscription,
    // Stored as it is shown: every change assigns a new object of exactly these fields.
    payment_method: org.payment,
    verify_rate_limited: org.verifyRateLimited,
    price_failures: org.priceFailures,
    clock: clockView(ctx),
    listing: org.listOrder,
    faults: org.faults.length,
    addresses: org.addressIds.length,
    shipments: org.shipmentIds.length,
  });
}

/** A setting of the organization: GET answers its view; PUT checks the body, applies it and answers the new view. */
function setting<T extends z.ZodType>(view: (org: Org) => unknown, schema: T, apply: (org: Org, change: z.infer<T>) => void) {
  return {
    show: (ctx: RequestContext): Reply => json(200, view(ctx.org)),
    change: async (ctx: RequestContext): Promise<Reply> => {
      apply(ctx.org, validate(schema, await body(ctx)));
      ctx.changed();
      return json(200, view(ctx.org));
    },
  };
}

const payment = setting((org) => org.payment, PaymentChange, (org, change) => {
  org.payment = change.state === "failing" ? { state: "failing", remaining: change.count ?? 1 } : { state: change.state };
});
const subscription = setting((org) => ({ active: org.subscription }), SubscriptionChange, (org, change) => void (org.subscription = change.active));
const verifyLimit = setting((org) => ({ remaining: org.verifyRateLimited }), CountChange, (org, change) => void (org.verifyRateLimited = change.count));
const priceFailures = setting(
  (org) => ({ remaining: org.priceFailures.count, status: org.priceFailures.status }),
  PriceFailureChange,
  (org, change) => void (org.priceFailures = { count: change.count, status: change.status ?? 0 }),
);
const listing = setting((org) => ({ order: org.listOrder }), ListingChange, (org, change) => void (org.listOrder = change.order));

function faultView(f: Fault) {
  return { id: f.id, method: f.method, path: f.path, kind: f.kind, remaining: f.remaining, ms: f.ms, retry_after: f.retryAfter };
}

async function addFault(ctx: RequestContext): Promise<Reply> {
  const f = validate(FaultRequest, await body(ctx));
  // The sandbox declares how long it may still be applying a request (GET /_sandbox/tables): a fault may not break it.
  if (f.kind === "slow-apply" && f.ms! > ctx.applyMaxMs) {
    throw ruleFailed(
      "ms",
      `The ms field may be at most ${ctx.applyMaxMs} for kind slow-apply: the sandbox declares apply_max_ms ${ctx.applyMaxMs} (GET /_sandbox/tables) and never applies a request later than that. Start it with a larger --apply-max to allow more.`,
    );
  }
  const fault: Fault = {
    id: ctx.state.nextRecordId(),
    method: (f.method ?? "*").toUpperCase(),
    path: f.path,
    kind: f.kind,
    remaining: f.count ?? 1,
    ...(TIMED_FAULTS.has(f.kind) ? { ms: f.ms } : {}),
    ...(f.kind === "429" ? { retryAfter: f.retry_after ?? 1 } : {}),
  };
  ctx.org.faults.push(fault);
  ctx.changed();
  return json(201, { data: faultView(fault) });
}

function clearFaults(ctx: RequestContext): Reply {
  ctx.org.faults = [];
  ctx.changed();
  return empty(204);
}

function listRequests(ctx: RequestContext): Reply {
  const method = ctx.query.get("method");
  const path = ctx.query.get("path");
  const filter = path ? `${method ?? ""} ${path}`.trim() : undefined;
  let data = ctx.received.all(filter, ctx.org.id);
  if (method && !path) data = data.filter((e) => e.method === method.toUpperCase());
  return json(200, { data });
}

function clearRequests(ctx: RequestContext): Reply {
  ctx.received.clear(ctx.org.id);
  return empty(204);
}

function resetOrganization(ctx: RequestContext): Reply {
  ctx.state.resetOrg(ctx.org);
  ctx.received.clear(ctx.org.id);
  ctx.changed();
  return empty(204);
}

/** Price sessions and charges as listed: their time as the service writes times. */
function pricedView(list: readonly PriceSession[]): Reply {
  return json(200, { data: list.map((p) => ({ ...p, at: serviceTimestamp(p.at) })) });
}

const p = (path: string) => new RegExp(`^/_sandbox/${path}$`);

export const controlRoutes: Route[] = [
  { method: "POST", pattern: p("organizations"), handler: createOrganization },
  { method: "GET", pattern: p("organization"), handler: organization },
  { method: "GET", pattern: p("tables"), handler: (ctx) => json(200, { sandbox: true, countries: SANDBOX_TABLES.countries, services: SANDBOX_TABLES.services, apply_max_ms: ctx.applyMaxMs }) },
  { method: "POST", pattern: p("shipments/(\\d+)/status"), handler: moveShipment },
  { method: "POST", pattern: p("shipments/seed"), handler: seedShipments },
  { method: "POST", pattern: p("tick"), handler: tickShipments },
  { method: "GET", pattern: p("clock"), handler: (ctx) => json(200, clockView(ctx)) },
  { method: "PUT", pattern: p("clock"), handler: setClock },
  { method: "DELETE", pattern: p("clock"), handler: resetClock },
  { method: "GET", pattern: p("payment-method"), handler: payment.show },
  { method: "PUT", pattern: p("payment-method"), handler: payment.change },
  { method: "GET", pattern: p("subscription"), handler: subscription.show },
  { method: "PUT", pattern: p("subscription"), handler: subscription.change },
  { method: "PUT", pattern: p("verifications/rate-limit"), handler: verifyLimit.change },
  { method: "GET", pattern: p("price-sessions"), handler: (ctx) => pricedView(ctx.org.priceSessions) },
  { method: "PUT", pattern: p("price-sessions/failures"), handler: priceFailures.change },
  { method: "GET", pattern: p("listing"), handler: listing.show },
  { method: "PUT", pattern: p("listing"), handler: listing.change },
  { method: "GET", pattern: p("faults"), handler: (ctx) => json(200, { data: ctx.org.faults.map(faultView) }) },
  { method: "POST", pattern: p("holds/release"), handler: (ctx) => json(200, { released: ctx.releaseHeld() }) },
  { method: "POST", pattern: p("faults"), handler: addFault },
  { method: "DELETE", pattern: p("faults"), handler: clearFaults },
  { method: "GET", pattern: p("requests"), handler: listRequests },
  { method: "DELETE", pattern: p("requests"), handler: clearRequests },
  { method: "GET", pattern: p("charges"), handler: (ctx) => pricedView(ctx.org.charges) },
  { method: "GET", pattern: p("reports"), handler: (ctx) => json(200, { data: ctx.org.reports.map((r) => ({ ...r, received_at: serviceTimestamp(r.received_at) })) }) },
  { method: "POST", pattern: p("reset"), handler: resetOrganization },
];
