// The CSV columns of each batch command, in the order `shipctl shipment template` prints them. Column names are the
// request's field names, with inline address fields prefixed by their side (`fulfillment_phone`).
import { ADDRESS_FIELDS, ADDRESS_SIDES, REQUIRED_ADDRESS_FIELDS, SHIPMENT_FIELDS, type AddressField, type AddressSide } from "../contract/index.js";

export type BatchKind = "shipment-create" | "shipment-update" | "address-verify" | "address-add" | "address-update";

export const sideColumn = (side: AddressSide, field: AddressField): string => `${side}_${field}`;
export const sideIdColumn = (side: AddressSide): string => `${side}_address_id`;

export interface Layout {
  kind: BatchKind;
  /** Every column the command reads, in template order. */
  columns: readonly string[];
  /** Columns every file must have. */
  required: readonly string[];
  /** Whether the file carries shipments, whose address sides take an id column or the inline columns. */
  sides: boolean;
  /** Other names accepted for a column (after header normalisation). */
  aliases: Readonly<Record<string, string>>;
}

/**
 * Columns that shipctl itself writes into results files: read back without a warning, and never sent, so a results
 * or errors file can be rerun (the origin columns tie its rows to the original: origin-columns.ts).
 */
export const RESULT_COLUMNS: readonly string[] = ["shipment_id", "address_id", "status", "error", "verdict", "row", "shipctl_row", "shipctl_key", "shipctl_original", "note"];

const sideColumns = ADDRESS_SIDES.flatMap((side) => [sideIdColumn(side), ...ADDRESS_FIELDS.map((f) => sideColumn(side, f))]);

const SHIPMENT_CREATE: Layout = {
  kind: "shipment-create",
  columns: ["reference", ...SHIPMENT_FIELDS, ...sideColumns],
  required: SHIPMENT_FIELDS,
  sides: true,
  aliases: {},
};

const SHIPMENT_UPDATE: Layout = {
  kind: "shipment-update",
  columns: ["id", "reference", ...SHIPMENT_FIELDS, ...sideColumns],
  required: ["id", ...SHIPMENT_FIELDS],
  sides: true,
  // A results file of `shipment create --csv` names the id `shipment_id`: it can be edited and fed to update.
  aliases: { shipment_id: "id" },
};

const ADDRESS: Layout = {
  kind: "address-add",
  columns: ["reference", ...ADDRESS_FIELDS],
  required: REQUIRED_ADDRESS_FIELDS,
  sides: false,
  aliases: {},
};

const ADDRESS_UPDATE: Layout = {
  kind: "address-update",
  columns: ["id", "reference", ...ADDRESS_FIELDS],
  required: ["id", ...REQUIRED_ADDRESS_FIELDS],
  sides: false,
  // `list addresses --format csv` and the results of `address add --csv` name the id `address_id`.
  aliases: { address_id: "id" },
};

const LAYOUTS: Record<BatchKind, Layout> = {
  "shipment-create": SHIPMENT_CREATE,
  "shipment-update": SHIPMENT_UPDATE,
  "address-verify": { ...ADDRESS, kind: "address-verify" },
  "address-add": ADDRESS,
  "address-update": ADDRESS_UPDATE,
};

export function layoutFor(kind: BatchKind): Layout {
  return LAYOUTS[kind];
}

/** The CSV column behind a path of a zod issue on a shipment or address payload. */
export function columnForPath(path: readonly PropertyKey[]): string {
  const [first, second] = path.map(String);
  if (first === undefined) return "row";
  for (const side of ADDRESS_SIDES) {
    if (first === `${side}_address`) return second === undefined ? sideIdColumn(side) : sideColumn(side, second as AddressField);
  }
  return first;
}
