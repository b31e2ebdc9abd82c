// `shipctl shipment template`: the CSV header and one example row, to start a file from. The example uses inline
// addresses on both sides; a stored address goes in fulfillment_address_id / destination_address_id instead.
import { layoutFor } from "../csv/columns.js";
import { csvLine } from "../csv/formula-cells.js";

const EXAMPLE: Record<string, string> = {
  id: "7",
  reference: "INV-0001",
  title: "Blue Study",
  value: "1200",
  length: "30",
  height: "24",
  depth: "3",
  service: "Standard",
  fulfillment_address_id: "",
  fulfillment_name: "North Gallery",
  fulfillment_email: "shipping@northgallery.example",
  fulfillment_phone: "(206) 953-6978",
  fulfillment_line_1: "1201 2nd Avenue",
  fulfillment_line_2: "Suite 300",
  fulfillment_city: "Seattle",
  fulfillment_region: "WA",
  fulfillment_post_code: "98101",
  fulfillment_country: "US",
  destination_address_id: "",
  destination_name: "Ada Collector",
  destination_email: "ada@example.com",
  destination_phone: "(212) 555-0142",
  destination_line_1: "20 W 34th Street",
  destination_line_2: "",
  destination_city: "New York",
  destination_region: "NY",
  destination_post_code: "10001",
  destination_country: "United States",
};

const exampleCell = (column: string) => EXAMPLE[column] ?? "";

export function templateCsv(options: { update: boolean; example: boolean }): string {
  const columns = layoutFor(options.update ? "shipment-update" : "shipment-create").columns;
  const header = csvLine(columns);
  return options.example ? header + csvLine(columns.map(exampleCell)) : header;
}

/**
 * The same template for `--json`: {"columns": [...], "example": {column: cell text}}, the example null with
 * --header-only. Cells are strings, as they are in the CSV.
 */
export function templateJson(options: { update: boolean; example: boolean }): { columns: string[]; example: Record<string, string> | null } {
  const columns = [...layoutFor(options.update ? "shipment-update" : "shipment-create").columns];
  return { columns, example: options.example ? Object.fromEntries(columns.map((c) => [c, exampleCell(c)])) : null };
}
