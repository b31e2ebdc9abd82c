// Path parameters and the request body, read the same way by every endpoint.
import type { RequestContext } from "../request-context.js";
import { fail, readJsonObject } from "../http.js";
import type { AddressRecord, ShipmentRecord } from "../model.js";

export function body(ctx: RequestContext): Promise<Record<string, unknown>> {
  return readJsonObject(ctx.req, ctx.countBytes);
}

/** The id in the path (the route pattern only lets digits through). */
export function idParam(ctx: RequestContext, index = 0): number {
  return Number(ctx.params[index]);
}

export function ownAddress(ctx: RequestContext, id: number): AddressRecord {
  const found = ctx.state.address(ctx.org, id);
  if (!found) throw fail(404, `No address with id ${id}.`);
  return found;
}

export function ownShipment(ctx: RequestContext, id: number): ShipmentRecord {
  const found = ctx.state.shipment(ctx.org, id);
  if (!found) throw fail(404, `No shipment with id ${id}.`);
  return found;
}
