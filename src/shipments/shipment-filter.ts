// Which listed shipments `list shipments` keeps (the filters are parsed in input/list-filters.ts), and the status
// name its JSON gives beside the number.
import { shipmentStatusName, type StoredShipment } from "../contract/index.js";
import type { ShipmentFilter } from "../input/list-filters.js";
import { parseTimestamp } from "../output/time-format.js";

export function shipmentMatches(filter: ShipmentFilter): (s: StoredShipment) => boolean {
  return (s) => {
    if (filter.statuses && !filter.statuses.has(s.status)) return false;
    if (filter.title !== undefined && !s.title.toLowerCase().includes(filter.title)) return false;
    if (filter.createdAfter || filter.createdBefore) {
      // A shipment whose creation time is missing or unreadable cannot be shown to be in the range.
      const created = parseTimestamp(s.created_at);
      if (created === undefined) return false;
      if (filter.createdAfter && created < filter.createdAfter) return false;
      if (filter.createdBefore && created >= filter.createdBefore) return false;
    }
    return true;
  };
}

/** The shipment with `status_name` ("Draft") right after its `status` (1), for JSON and NDJSON. */
export function withStatusName(s: StoredShipment): StoredShipment & { status_name: string } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s)) {
    out[key] = value;
    if (key === "status") out.status_name = shipmentStatusName(s.status);
  }
  return out as StoredShipment & { status_name: string };
}
