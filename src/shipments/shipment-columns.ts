// The columns of shipments in a table for people (`list shipments`); scripts use --json or --ndjson.
import { shipmentStatusName, type StoredShipment } from "../contract/index.js";
import type { EnumLabels } from "../input/table-values.js";
import type { Column } from "../output/table.js";
import { formatTimestamp } from "../output/time-format.js";
import { price, usd } from "./describe-shipment.js";

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
