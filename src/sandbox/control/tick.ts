// POST /_sandbox/tick: one step of the lifecycle for every shipment of the organization that the service itself
// would move, so `watch` and `due` can be rehearsed without moving shipments one by one. The steps the service takes
// on its own (carriers, labels) advance one status; the ones that wait for the organization do not:
//   Draft waits for payment (checkout makes it Confirmed), Delivered waits for condition report set 1 (Filed),
//   Arrived waits for set 2 (Completed), and Completed is the end.
// Reaching Delivered or Arrived stamps delivered_at / arrived_at with the organization's now, as a status move does,
// so the report windows open at the tick.
import { ShipmentStatus, shipmentStatusName } from "../../contract/index.js";
import type { Instant, Org } from "../model.js";
import type { RequestContext } from "../request-context.js";
import type { SandboxState } from "../state.js";
import { json, type Reply } from "../http.js";
import { serviceTimestamp, toInstant } from "../org-clock.js";

/** The next status the service moves a shipment to by itself; absent where the organization must act first. */
export const TICK_STEPS: ReadonlyMap<ShipmentStatus, ShipmentStatus> = new Map([
  [ShipmentStatus.Confirmed, ShipmentStatus.Pending],
  [ShipmentStatus.Pending, ShipmentStatus.Allocated],
  [ShipmentStatus.Allocated, ShipmentStatus.Scheduled],
  [ShipmentStatus.Scheduled, ShipmentStatus.Dispatched],
  [ShipmentStatus.Dispatched, ShipmentStatus.Delivered],
  [ShipmentStatus.Filed, ShipmentStatus.DropOff],
  [ShipmentStatus.DropOff, ShipmentStatus.Shipped],
  [ShipmentStatus.Shipped, ShipmentStatus.Arrived],
]);

/** Why a shipment in a status the tick leaves is left (what the organization must do). */
const WAITING: ReadonlyMap<ShipmentStatus, string> = new Map([
  [ShipmentStatus.Draft, "payment"],
  [ShipmentStatus.Delivered, "condition report set 1"],
  [ShipmentStatus.Arrived, "condition report set 2"],
]);

/**
 * One step for every shipment of `org`: `nowMs` is the organization's clock (delivered_at, arrived_at), `stamp` what
 * its records are stamped with (updated_at). Used by the route and by `shipctl sandbox --tick SECONDS`.
 */
export function tickOrg(state: SandboxState, org: Org, nowMs: number, stamp: Instant) {
  const at = toInstant(nowMs);
  const moved: Array<{ id: number; from: number; from_name: string; to: number; to_name: string }> = [];
  const waiting = new Map<ShipmentStatus, number>();
  for (const id of org.shipmentIds) {
    // The organization's id list names only its own shipments (state.ts keeps both together).
    const shipment = state.shipments.get(id)!;
    const from = shipment.status as ShipmentStatus;
    const to = TICK_STEPS.get(from);
    if (to === undefined) {
      if (WAITING.has(from)) waiting.set(from, (waiting.get(from) ?? 0) + 1);
      continue;
    }
    shipment.status = to;
    if (to === ShipmentStatus.Delivered) shipment.deliveredAt = at;
    if (to === ShipmentStatus.Arrived) shipment.arrivedAt = at;
    shipment.updatedAt = stamp;
    moved.push({ id, from, from_name: shipmentStatusName(from), to, to_name: shipmentStatusName(to) });
  }
  return {
    at: serviceTimestamp(at),
    moved,
    waiting: [...WAITING].map(([status, reason]) => ({ status, status_name: shipmentStatusName(status), count: waiting.get(status) ?? 0, waits_for: reason })),
  };
}

export function tickShipments(ctx: RequestContext): Reply {
  const view = tickOrg(ctx.state, ctx.org, ctx.now(), ctx.stamp());
  if (view.moved.length > 0) ctx.changed();
  return json(200, view);
}
