// One reading of the watched shipments: each given id read on its own, or with no ids every page of the list (the
// service has no status filter and no webhooks, so reading is the only way to see a change).
import type { ApiClient, CallOptions } from "../api/client-types.js";
import { NotFoundError } from "../api/api-errors.js";
import { walkPages } from "../api/walk-pages.js";
import { PAGE } from "../contract/limits.js";
import { RejectedError } from "../errors.js";
import type { ShipmentReading } from "./changes.js";

export async function readStatuses(api: ApiClient, ids: readonly number[] | "all", call: CallOptions): Promise<ShipmentReading[]> {
  if (ids === "all") {
    const readings: ShipmentReading[] = [];
    // The largest page the contract allows: fewest requests per reading.
    await walkPages(api, { kind: "shipments", query: { limit: PAGE.limit.max }, all: true, call, onPage: (page) => void readings.push(...page.data) });
    return readings;
  }
  const readings: ShipmentReading[] = [];
  const missing: number[] = [];
  for (const id of ids) {
    try {
      readings.push(await api.getShipment(id, call));
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      missing.push(id);
    }
  }
  if (missing.length > 0) throw notFound(missing);
  return readings;
}

/** Every id the service does not know, in one error (not the first 404 alone), so one fix of the command line is enough. */
function notFound(missing: number[]): RejectedError {
  const list = missing.join(", ");
  const error = new RejectedError(`${missing.length === 1 ? `shipment ${list} does not exist` : `shipments ${list} do not exist`} for this profile's organization`, {
    hint: "Check the ids with `shipctl list shipments`, or run `shipctl watch` without ids to watch every shipment not yet Completed.",
  });
  error.errorCode = "not_found";
  error.details = { ids: missing };
  return error;
}
