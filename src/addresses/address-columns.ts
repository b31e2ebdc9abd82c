// The columns of addresses in a table for people (`list addresses`); scripts use --json or --ndjson.
import type { StoredAddress } from "../contract/index.js";
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
