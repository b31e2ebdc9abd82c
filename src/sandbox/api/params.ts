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
  return ctx.state.address(ctx.org, id) ?? notFound("address", id);
}

export function ownShipment(ctx: RequestContext, id: number): ShipmentRecord {
  return ctx.state.shipment(ctx.org, id) ?? notFound("shipment", id);
}

function notFound(what: string, id: number): never {
  throw fail(404, `No ${what} with id ${id}.`);
}
