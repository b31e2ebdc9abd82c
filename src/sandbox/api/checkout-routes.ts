// GET /api/v1/checkout (the price session) and POST /api/v1/checkout (finalize and charge).
// [assume] decisions, documented in docs/sandbox.md:
//   - ids that do not exist in the organization -> 422 keyed `shipments.N` (the framework's "exists" rule);
//   - a shipment that is no longer a Draft -> 422 (it is paid for: never priced or charged twice);
//   - finalize needs every listed shipment to hold a price from an earlier price session, not cleared by an update,
//     and the listed shipments to be exactly those of one price session (session-match.ts).
import { CheckoutRequest, CheckoutSessionStatus, ShipmentStatus, shipmentStatusName } from "../../contract/index.js";
import type { Route, RequestContext } from "../request-context.js";
import { empty, HttpError, invalid, json, ruleFailed, type Reply } from "../http.js";
import type { PriceSession, ShipmentRecord } from "../model.js";
import { priceCents } from "../pricing.js";
import { toInstant } from "../org-clock.js";
import { addError, validate, type Errors } from "../request-validation.js";
import { body } from "./params.js";
import { sessionMismatch } from "./session-match.js";

const QUERY_KEY = /^shipments(\[\d*\])?$/;

/** Ids from `shipments[]=1&shipments[]=2` (also `shipments[0]=1` or repeated `shipments=1`), or undefined if none. */
function queryIds(query: URLSearchParams): unknown[] | undefined {
  const ids: unknown[] = [];
  for (const [key, value] of query) {
    if (QUERY_KEY.test(key)) ids.push(/^\d+$/.test(value) ? Number(value) : value);
  }
  return ids.length > 0 ? ids : undefined;
}

function sameIds(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  const sorted = (l: unknown[]) => l.map(String).sort().join(",");
  return sorted(a) === sorted(b);
}

/** The listed shipments of this organization, each still a Draft; everything wrong is reported at once. */
function draftShipments(ctx: RequestContext, ids: number[], needPrice: boolean): ShipmentRecord[] {
  const errors: Errors = {};
  const found: ShipmentRecord[] = [];
  ids.forEach((id, i) => {
    const key = `shipments.${i}`;
    const s = ctx.state.shipment(ctx.org, id);
    if (!s) return addError(errors, key, `The selected ${key} is invalid: there is no shipment ${id} in this organization.`);
    if (s.status !== ShipmentStatus.Draft) {
      return addError(errors, key, `Shipment ${id} is already paid (status ${shipmentStatusName(s.status)}): it is never priced or charged twice.`);
    }
    if (needPrice && s.price === null) {
      return addError(errors, key, `Shipment ${id} has no price: price it with GET /api/v1/checkout first (an update clears the price).`);
    }
    found.push(s);
  });
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return found;
}

async function priceSession(ctx: RequestContext): Promise<Reply> {
  // No body at all reads as {}: the ids may come in the query string alone.
  const raw = await body(ctx);
  const fromQuery = queryIds(ctx.query);
  if (fromQuery) {
    if (Array.isArray(raw.shipments) && !sameIds(raw.shipments, fromQuery)) {
      throw invalid({ shipments: ["The shipments in the query string and in the JSON body differ: send the same ids in both, or only one of them."] });
    }
    if (raw.shipments === undefined) raw.shipments = fromQuery;
  }
  const { shipments: ids } = validate(CheckoutRequest, raw);
  const shipments = draftShipments(ctx, ids, false);

  if (ctx.org.priceFailures.count > 0) {
    ctx.org.priceFailures.count -= 1;
    ctx.changed();
    const status = ctx.org.priceFailures.status;
    const message = status === CheckoutSessionStatus.RateLimited ? "Rate limited" : "Failed";
    return json(500, { status, message });
  }

  const sessionId = ctx.state.nextRecordId();
  for (const s of shipments) {
    s.price = priceCents(s);
    s.priceSession = sessionId;
  }
  const prices = priceList(shipments);
  ctx.org.priceSessions.push({ id: sessionId, at: toInstant(ctx.now()), ...prices });
  ctx.changed();
  return json(200, prices);
}

/** The shipments' prices in cents by id and their total: what a price session answers and a charge records. */
function priceList(shipments: readonly ShipmentRecord[]): Pick<PriceSession, "shipments" | "total"> {
  return {
    shipments: Object.fromEntries(shipments.map((s) => [s.id, s.price!])),
    total: shipments.reduce((sum, s) => sum + s.price!, 0),
  };
}

export const NO_PAYMENT_METHOD = "No valid payment method.";

async function finalize(ctx: RequestContext): Promise<Reply> {
  const { shipments: ids } = validate(CheckoutRequest, await body(ctx));
  const shipments = draftShipments(ctx, ids, true);
  const org = ctx.org;
  // Checked before the payment method, as every other rule of the body: a refused checkout never touches the card.
  const mismatch = sessionMismatch(org, shipments);
  if (mismatch) throw ruleFailed("shipments", mismatch);
  switch (org.payment.state) {
    case "none":
    case "invalid":
      // The contract's 403 body is a bare JSON string.
      throw new HttpError(json(403, NO_PAYMENT_METHOD));
    case "declining":
      // After a 402 the method is invalidated: later attempts get 403 until it is fixed (control surface).
      org.payment = { state: "invalid" };
      ctx.changed();
      throw new HttpError(json(402, { status: 1, message: "The payment provider declined the card." }));
    case "failing":
      org.payment = org.payment.remaining > 1 ? { state: "failing", remaining: org.payment.remaining - 1 } : { state: "valid" };
      ctx.changed();
      throw new HttpError(json(409, { status: 1, message: "Payment failed while the checkout session was created. Try again in about a minute." }));
    case "valid":
      break;
  }
  const at = toInstant(ctx.now());
  for (const s of shipments) {
    s.status = ShipmentStatus.Confirmed;
    s.updatedAt = ctx.stamp();
  }
  org.charges.push({ id: ctx.state.nextRecordId(), at, ...priceList(shipments) });
  ctx.changed();
  return empty(204);
}

export const checkoutRoutes: Route[] = [
  { method: "GET", pattern: /^\/api\/v1\/checkout$/, handler: priceSession },
  { method: "POST", pattern: /^\/api\/v1\/checkout$/, handler: finalize },
];
