// The columns of `list shipments` and `list addresses` for people (scripts use --json or --ndjson).
import { shipmentStatusName, type StoredAddress, type StoredShipment } from "../../contract/index.js";
import type { EnumLabels } from "../../input/enums.js";
import type { Column } from "../../output/table.js";
import { formatTimestamp } from "../../output/time.js";
import { price, usd } from "../shipment/describe.js";

export function shipmentColumns(labels: EnumLabels): Column<StoredShipment>[] {
  return [
    { header: "ID", value: (s) => s.id, align: "right", keep: true },
    { header: "TITLE", value: (s) => s.title },
    { header: "STATUS", value: (s) => shipmentStatusName(s.status), keep: true },
    { header: "VALUE", value: (s) => usd(s.value), align: "right", keep: true },
    { header: "SERVICE", value: (s) => (s.service === undefined ? "" : labels.service(s.service)) },
    { header: "PRICE", value: (s) => price(s.price), align: "right", keep: true },
    { header: "CREATED", value: (s) => formatTimestamp(s.created_at), keep: true },
  ];
}

export function addressColumns(labels: EnumLabels): Column<StoredAddress>[] {
  return [
    { header: "ID", value: (a) => a.id, align: "right", keep: true },
    { header: "NAME", value: (a) => a.name },
    { header: "LINE 1", value: (a) => a.line_1 },
    { header: "CITY", value: (a) => a.city },
    { header: "REGION", value: (a) => a.region },
    { header: "POST CODE", value: (a) => a.post_code, keep: true },
    { header: "COUNTRY", value: (a) => labels.country(a.country) },
  ];
}
