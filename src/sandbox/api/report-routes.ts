// POST /api/v1/reports/{shipment_id}/{set}: a condition report set, 6 box[] and 6 art[] photos, multipart.
// Set 1 only while Delivered and within 30 days of delivered_at; set 2 only while Arrived and within 24 hours of
// arrived_at (both edges inclusive). Stored: the status moves Delivered -> Filed, or Arrived -> Completed.
import { REPORT, ShipmentStatus, shipmentStatusName, type ReportSet } from "../../contract/index.js";
import type { Route, RequestContext } from "../request-context.js";
import { empty, fail, invalid, ruleFailed, type Reply } from "../http.js";
import type { ShipmentRecord } from "../model.js";
import { isMultipart, parseReport } from "../multipart.js";
import { serviceTimestamp, toInstant } from "../org-clock.js";
import { idParam, ownShipment } from "./params.js";

const RULES = {
  1: {
    status: ShipmentStatus.Delivered,
    next: ShipmentStatus.Filed,
    windowMs: REPORT.set1WindowMs,
    windowText: "30 days",
    since: (s: ShipmentRecord) => s.deliveredAt,
    event: "delivery to the fulfillment address",
  },
  2: {
    status: ShipmentStatus.Arrived,
    next: ShipmentStatus.Completed,
    windowMs: REPORT.set2WindowMs,
    windowText: "24 hours",
    since: (s: ShipmentRecord) => s.arrivedAt,
    event: "arrival at the destination",
  },
};

/** Why this set cannot be stored now, or undefined when it can. */
export function setRuleViolation(s: ShipmentRecord, set: ReportSet, now: number): string | undefined {
  const rule = RULES[set];
  if (s.status !== rule.status) {
    return `Condition report set ${set} can be stored only while the shipment is ${shipmentStatusName(rule.status)}; shipment ${s.id} is ${shipmentStatusName(s.status)}.`;
  }
  const since = rule.since(s);
  if (since !== null && now - since > rule.windowMs) {
    return `The set ${set} window has closed: set ${set} must be stored within ${rule.windowText} of ${rule.event} (${serviceTimestamp(since)} UTC); it closed at ${serviceTimestamp(since + rule.windowMs)} UTC.`;
  }
  return undefined;
}

async function storeReport(ctx: RequestContext): Promise<Reply> {
  const shipmentId = idParam(ctx, 0);
  const setText = ctx.params[1]!;
  if (setText !== "1" && setText !== "2") {
    throw fail(404, `No condition report set "${setText}": set 1 is before shipping, set 2 after arrival.`);
  }
  const set = Number(setText) as ReportSet;
  const shipment = ownShipment(ctx, shipmentId);
  if (!isMultipart(ctx.req.headers["content-type"])) {
    throw fail(415, `Unsupported Content-Type "${ctx.req.headers["content-type"] ?? "none"}": send multipart/form-data with 6 box[] and 6 art[] files.`);
  }
  // The submission is made when the request arrives; a slow upload does not lose its place in the window.
  const arrivedAt = ctx.now();
  const before = setRuleViolation(shipment, set, arrivedAt);
  if (before) throw ruleFailed("shipment", before);

  const parsed = await parseReport(ctx.req, {
    onPart: (name) => (ctx.entry ? (ctx.entry.parts ??= []).push(name) : undefined),
    onBytes: ctx.countBytes,
  });
  if (Object.keys(parsed.errors).length > 0) throw invalid(parsed.errors);

  // Checked again now that the body is in: the organization may have been reset (404), or another upload of the same
  // set may have completed meanwhile.
  ownShipment(ctx, shipmentId);
  const after = setRuleViolation(shipment, set, arrivedAt);
  if (after) throw ruleFailed("shipment", after);

  const at = toInstant(ctx.now());
  shipment.status = RULES[set].next;
  shipment.updatedAt = ctx.stamp();
  ctx.org.reports.push({ id: ctx.state.nextRecordId(), shipment_id: shipmentId, set, received_at: at, photos: parsed.photos });
  ctx.changed();
  return empty(201);
}

export const reportRoutes: Route[] = [{ method: "POST", pattern: /^\/api\/v1\/reports\/(\d+)\/([^/]+)$/, handler: storeReport }];
