// The columns of shipments in a table for people (`list shipments`), and in a CSV export for spreadsheets.
import { ADDRESS_FIELDS, ADDRESS_SIDES, SHIPMENT_FIELDS, shipmentSide, shipmentStatusName, type AddressSide, type StoredShipment } from "../contract/index.js";
import { sideColumn, sideIdColumn } from "../csv/columns.js";
import type { CsvColumn } from "../csv/csv-export.js";
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

/**
 * `list shipments --format csv`: the columns `shipment update --csv` reads, named as it reads them (csv/columns.ts),
 * so an export edited in a spreadsheet is a valid update file. A side given by a stored address gives that id (however
 * the service wrote the side: contract/stored-shipment.ts), and an update sends it as that id again; a side given
 * inline when the shipment was written (no id) gives its address columns instead.
 */
export const SHIPMENT_CSV_COLUMNS: readonly CsvColumn<StoredShipment>[] = [
  { header: "shipment_id", cell: (s) => s.id },
  ...SHIPMENT_FIELDS.map((f): CsvColumn<StoredShipment> => ({ header: f, cell: (s) => s[f] })),
  ...ADDRESS_SIDES.flatMap((side): CsvColumn<StoredShipment>[] => [
    { header: sideIdColumn(side), cell: (s) => shipmentSide(s, side).id },
    ...ADDRESS_FIELDS.map((f): CsvColumn<StoredShipment> => ({ header: sideColumn(side, f), cell: (s) => inlineSide(s, side)?.[f] })),
  ]),
];

function inlineSide(s: StoredShipment, side: AddressSide) {
  const { id, address } = shipmentSide(s, side);
  return id === null ? address : null;
}
