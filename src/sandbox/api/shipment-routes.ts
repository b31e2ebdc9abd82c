// POST /api/v1/shipments (1..10, all or nothing), PATCH and GET /api/v1/shipments/{id}, GET /api/v1/shipments (in the
// organization's list order).
import { CreateShipmentsRequest, Shipment, ShipmentStatus, shipmentStatusName, type AddressSide } from "../../contract/index.js";
import type { Route, RequestContext } from "../request-context.js";
import { empty, json, ruleFailed, type Reply } from "../http.js";
import type { ShipmentAddress } from "../model.js";
import { paginate } from "../pagination.js";
import { checkShipment, validate } from "../request-validation.js";
import { addressFields, shipmentView } from "../views.js";
import { body, idParam, ownShipment } from "./params.js";

function addressExists(ctx: RequestContext) {
  return (id: number) => ctx.state.address(ctx.org, id) !== undefined;
}

/** The side's address as stored on the shipment: a copy of the referenced address, or the inline fields. */
function sideAddress(ctx: RequestContext, s: Shipment, side: AddressSide): ShipmentAddress {
  const id = s[`${side}_address_id`];
  if (id !== undefined) {
    // Validation has already checked the reference, so the address exists in this organization.
    const stored = ctx.state.address(ctx.org, id)!;
    return { id, ...addressFields(stored) };
  }
  return { id: null, ...addressFields(s[`${side}_address`]!) };
}

function shipmentFields(ctx: RequestContext, s: Shipment) {
  const { title, value, length, height, depth, service } = s;
  return {
    title, value, length, height, depth, service,
    fulfillment: sideAddress(ctx, s, "fulfillment"),
    destination: sideAddress(ctx, s, "destination"),
  };
}

async function create(ctx: RequestContext): Promise<Reply> {
  const raw = await body(ctx);
  const exists = addressExists(ctx);
  const request = validate(CreateShipmentsRequest, raw, "", (r, errors) => {
    if (Array.isArray(r.shipments)) r.shipments.forEach((s, i) => checkShipment(s, `shipments.${i}`, errors, exists));
  });
  const at = ctx.stamp();
  const created = ctx.state.addShipments(
    ctx.org,
    request.shipments.map((s) => ({ ...shipmentFields(ctx, s), status: ShipmentStatus.Draft, createdAt: at, deliveredAt: null, arrivedAt: null })),
  );
  ctx.changed();
  return json(201, { shipments: created.map((s) => ({ id: s.id, title: s.title })) });
}

async function update(ctx: RequestContext): Promise<Reply> {
  const record = ownShipment(ctx, idParam(ctx));
  const raw = await body(ctx);
  const s = validate(Shipment, raw, "", (r, errors) => checkShipment(r, "", errors, addressExists(ctx)));
  // [assume] Only a Draft can change: later statuses are paid for or on their way. 422 rather than 409, because the
  // contract gives 409 the meaning "temporary, retry", and retrying this would never help.
  if (record.status !== ShipmentStatus.Draft) {
    throw ruleFailed("shipment", `Shipment ${record.id} can be updated only while it is a Draft; it is ${shipmentStatusName(record.status)}.`);
  }
  // A changed shipment must be priced again before checkout: its price and the session that set it no longer hold.
  Object.assign(record, shipmentFields(ctx, s), { price: null, priceSession: null, updatedAt: ctx.stamp() });
  ctx.changed();
  return empty(204);
}

export const shipmentRoutes: Route[] = [
  { method: "POST", pattern: /^\/api\/v1\/shipments$/, handler: create },
  { method: "GET", pattern: /^\/api\/v1\/shipments$/, handler: (ctx) => json(200, paginate(ctx, ctx.org.shipmentIds, (id) => shipmentView(ctx.state.shipments.get(id)!, ctx.shipmentShape))) },
  { method: "GET", pattern: /^\/api\/v1\/shipments\/(\d+)$/, handler: (ctx) => json(200, { data: shipmentView(ownShipment(ctx, idParam(ctx)), ctx.shipmentShape) }) },
  { method: "PATCH", pattern: /^\/api\/v1\/shipments\/(\d+)$/, handler: update },
];
