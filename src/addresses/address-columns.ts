// The columns of addresses in a table for people (`list addresses`), and in a CSV export for spreadsheets.
import { ADDRESS_FIELDS, type StoredAddress } from "../contract/index.js";
import type { CsvColumn } from "../csv/csv-export.js";
import type { EnumLabels } from "../input/table-values.js";
import type { Column } from "../output/table.js";

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

/** `list addresses --format csv`: the columns `address update --csv` reads, so an edited export is an update file. */
export const ADDRESS_CSV_COLUMNS: readonly CsvColumn<StoredAddress>[] = [
  { header: "address_id", cell: (a) => a.id },
  ...ADDRESS_FIELDS.map((f): CsvColumn<StoredAddress> => ({ header: f, cell: (a) => a[f] })),
];
