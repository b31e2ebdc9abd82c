// The Shipment fields and the flags that set them. Free of heavy imports (the wiring reads it for --help), so the
// bounds come straight from the contract's limits module rather than its zod schemas.
import { SHIPMENT_BOUNDS as B } from "../contract/limits.js";
import type { ShipmentField } from "../contract/fields.js";
import type { FieldFlag } from "./address-fields.js";

interface ShipmentFieldFlag extends FieldFlag<ShipmentField | "fulfillment_address_id" | "destination_address_id"> {
  /**
   * How the text of the flag becomes a value: kept as text, read as a number, read as an id (plain digits, as every id
   * argument and a CSV's id columns take it: "1.0" is no id), or looked up (service).
   */
  readonly kind: "text" | "number" | "id" | "service";
}

export const SHIPMENT_FIELD_FLAGS = [
  { field: "title", flag: "--title", key: "title", kind: "text", help: `name, description or reference of the piece (${B.title.min}-${B.title.max} characters)` },
  { field: "value", flag: "--value", key: "value", kind: "number", help: `value of the artwork in whole USD (${B.value.min}-${B.value.max})` },
  { field: "length", flag: "--length", key: "length", kind: "number", help: `length in inches (${B.length.min}-${B.length.max})` },
  { field: "height", flag: "--height", key: "height", kind: "number", help: `height in inches (${B.height.min}-${B.height.max})` },
  { field: "depth", flag: "--depth", key: "depth", kind: "number", help: `depth in inches (${B.depth.min}-${B.depth.max})` },
  { field: "service", flag: "--service", key: "service", kind: "service", help: "service: the integer value or a name from the profile's table" },
  { field: "fulfillment_address_id", flag: "--fulfillment-address-id", key: "fulfillmentAddressId", kind: "id", help: "id of a stored address the box is collected from" },
  { field: "destination_address_id", flag: "--destination-address-id", key: "destinationAddressId", kind: "id", help: "id of a stored address the box is delivered to" },
] as const satisfies readonly ShipmentFieldFlag[];

export type ShipmentFlags = { file?: string } & Partial<Record<(typeof SHIPMENT_FIELD_FLAGS)[number]["key"], string>>;

export function shipmentFlagFor(field: string): string | undefined {
  return SHIPMENT_FIELD_FLAGS.find((f) => f.field === field)?.flag;
}

/**
 * The fields the flags set, trimmed: a number field's plain decimal text and an id's plain digits as numbers (the
 * schema judges the rest).
 */
export function shipmentFlagValues(flags: ShipmentFlags): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of SHIPMENT_FIELD_FLAGS) {
    const text = flags[f.key]?.trim();
    if (text === undefined) continue;
    const numeric = f.kind === "number" ? /^-?\d+(\.\d+)?$/ : f.kind === "id" ? /^-?\d+$/ : undefined;
    out[f.field] = numeric?.test(text) ? Number(text) : text;
  }
  return out;
}
