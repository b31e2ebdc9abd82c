// Control-surface fields that are read the same way by several routes: each answers a 422 naming the field and
// showing what was sent.
import { ShipmentStatus, shipmentStatusFromName } from "../../contract/index.js";
import { ruleFailed } from "../http.js";
import { parseControlTime } from "../org-clock.js";

const STATUSES = new Set<number>(Object.values(ShipmentStatus));

/** A timestamp given to the control surface, in epoch milliseconds. */
export function timestampField(key: string, text: string): number {
  const ms = parseControlTime(text);
  if (ms === undefined) throw ruleFailed(key, `The ${key} field must be a timestamp like "2025-01-31 00:00:00" (UTC) or ISO 8601 with a zone (got "${text}").`);
  return ms;
}

/** A shipment status by number (7) or name ("Delivered", "drop-off"). */
export function statusField(key: string, value: number | string): ShipmentStatus {
  const status = typeof value === "number" ? value : shipmentStatusFromName(value);
  if (status === undefined || !STATUSES.has(status)) {
    throw ruleFailed(key, `The ${key} field must be a shipment status 1..12 or its name (got ${JSON.stringify(value)}).`);
  }
  return status as ShipmentStatus;
}
