// One reading of the watched shipments: each given id read on its own, or with no ids every page of the list (the
// service has no status filter and no webhooks, so reading is the only way to see a change), several pages at a time
// as `due` reads them: a reading of a long list takes a few round trips, not one per page.
import type { ApiClient, CallOptions } from "../api/client-types.js";
import { NotFoundError } from "../api/api-errors.js";
import { DEFAULT_READ_CONCURRENCY } from "../batch/concurrency.js";
import { shipmentsListed } from "../ledger/listed-resources.js";
import { readEvery } from "../ledger/window-read.js";
import { RejectedError } from "../errors.js";
import type { ShipmentReading } from "./changes.js";

export async function readStatuses(api: ApiClient, ids: readonly number[] | "all", call: CallOptions): Promise<ShipmentReading[]> {
  if (ids === "all") {
    const read = await readEvery({ ...shipmentsListed(api, call), ahead: DEFAULT_READ_CONCURRENCY });
    // A shipment created during the read pushes the others a place on: one may show on two pages.
    return [...new Map(read.items.map((s) => [s.id, s])).values()];
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
