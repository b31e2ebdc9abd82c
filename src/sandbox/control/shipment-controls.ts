// The shipment controls: move a shipment to any status (POST /_sandbox/shipments/{id}/status), and create many at once
// (POST /_sandbox/shipments/seed) for tests that need a long list, far faster than POST /api/v1/shipments 10 at a time.
import { ShipmentStatus } from "../../contract/index.js";
import { body, idParam, ownShipment } from "../api/params.js";
import type { RequestContext } from "../request-context.js";
import { json, ruleFailed, type Reply } from "../http.js";
import type { ShipmentAddress } from "../model.js";
import { serviceTimestamp, toInstant } from "../org-clock.js";
import { validate } from "../request-validation.js";
import { shipmentView } from "../views.js";
import { statusField, timestampField } from "./control-fields.js";
import { SeedRequest, StatusChange } from "./control-schemas.js";

export async function moveShipment(ctx: RequestContext): Promise<Reply> {
  const shipment = ownShipment(ctx, idParam(ctx));
  const change = validate(StatusChange, await body(ctx));
  const status = statusField("status", change.status);
  let at = toInstant(ctx.now());
  if (change.at !== undefined) {
    const parsed = timestampField("at", change.at);
    if (status !== ShipmentStatus.Delivered && status !== ShipmentStatus.Arrived) {
      throw ruleFailed("at", "The at field is allowed only when moving to Delivered (sets delivered_at) or Arrived (sets arrived_at).");
    }
    at = toInstant(parsed);
  }
  shipment.status = status;
  if (status === ShipmentStatus.Delivered) shipment.deliveredAt = at;
  if (status === ShipmentStatus.Arrived) shipment.arrivedAt = at;
  shipment.updatedAt = ctx.stamp();
  ctx.changed();
  return json(200, { data: shipmentView(shipment, ctx.shipmentShape) });
}

/**
 * Both sides of every seeded shipment: an address the sandbox verifies as valid as it stands. One frozen object is
 * shared by all of them (50,000 copies would be 50,000 objects for nothing): nothing changes a shipment's address in
 * place, an update replaces it, and freezing makes any code that tried fail loudly.
 */
const SEED_ADDRESS: Readonly<ShipmentAddress> = Object.freeze({
  id: null,
  name: "Sandbox Seed Gallery",
  email: "seed@sandbox.example",
  phone: "+12065550100",
  line_1: "400 Broad Street",
  line_2: null,
  city: "Seattle",
  region: "WA",
  post_code: "98109",
  country: 1,
});

/** Seeded titles number from 1 with at least 5 digits ("Seed 00001"), so they sort as they were made. */
function seedTitle(prefix: string, index: number, count: number): string {
  return `${prefix} ${String(index + 1).padStart(Math.max(5, String(count).length), "0")}`;
}

/** Stamps stay printable as `YYYY-MM-DD HH:MM:SS`. */
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59);

export async function seedShipments(ctx: RequestContext): Promise<Reply> {
  const seed = validate(SeedRequest, await body(ctx));
  const count = seed.count;
  const status = seed.status === undefined ? ShipmentStatus.Draft : statusField("status", seed.status);
  const step = seed.created_step_ms ?? 1000;
  // By default the last one is made now, as this organization stamps records (its created_at lag included).
  const from = seed.created_from === undefined ? ctx.stamp() - (count - 1) * step : timestampField("created_from", seed.created_from);
  const last = from + (count - 1) * step;
  if (from < EARLIEST || last > LATEST) {
    throw ruleFailed("created_from", `The seeded created_at must fall between 1970 and 9999 (from ${serviceTimestamp(from)} by ${step} ms, ${count} times).`);
  }
  const prefix = seed.title_prefix ?? "Seed";
  const now = toInstant(ctx.now());
  const created = ctx.state.addShipments(
    ctx.org,
    Array.from({ length: count }, (_, i) => ({
      title: seedTitle(prefix, i, count),
      // The shipment of docs/sandbox.md's examples: valid, and priced 4640 cents.
      value: 1000,
      length: 20,
      height: 16,
      depth: 2,
      service: 1,
      fulfillment: SEED_ADDRESS,
      destination: SEED_ADDRESS,
      status,
      createdAt: toInstant(from + i * step),
      // As a status move would: the event happened now.
      deliveredAt: status === ShipmentStatus.Delivered ? now : null,
      arrivedAt: status === ShipmentStatus.Arrived ? now : null,
    })),
  );
  ctx.changed();
  const first = created[0]!;
  const end = created[created.length - 1]!;
  return json(201, {
    count,
    first_id: first.id,
    last_id: end.id,
    first_created_at: serviceTimestamp(first.createdAt),
    last_created_at: serviceTimestamp(end.createdAt),
  });
}
