// The Address fields and the flags that set them. Kept free of heavy imports: the commands' wiring (loaded for
// --help) reads it to declare the flags, and the input logic reads it to name the flag behind a bad field.
import type { AddressField } from "../contract/fields.js";

/** A flag that sets a field. The literal field and key of each flag are taken from the table itself (`as const`). */
export interface FieldFlag<F extends string> {
  /** Field of the request body. */
  readonly field: F;
  /** Command-line flag, e.g. `--line-1`. */
  readonly flag: string;
  /** Key under which commander hands the flag's value over (`--line-1` -> `line1`). */
  readonly key: string;
  readonly help: string;
}

export const ADDRESS_FIELD_FLAGS = [
  { field: "name", flag: "--name", key: "name", help: "person or company name (2-50 characters)" },
  { field: "email", flag: "--email", key: "email", help: "contact email; carriers may send tracking notices to it" },
  { field: "phone", flag: "--phone", key: "phone", help: "phone, E.164 (+12069536978); a national number is read using the country" },
  { field: "line_1", flag: "--line-1", key: "line1", help: "first address line (2-35 characters)" },
  { field: "line_2", flag: "--line-2", key: "line2", help: 'second address line, optional ("" removes one given in --file)' },
  { field: "city", flag: "--city", key: "city", help: "town or city" },
  { field: "region", flag: "--region", key: "region", help: "state, province or region" },
  { field: "post_code", flag: "--post-code", key: "postCode", help: "postal or ZIP code, in the country's format (a US ZIP of the --region state; lost leading zeros put back where that fits)" },
  { field: "country", flag: "--country", key: "country", help: "country: the integer value, an ISO code (US) or a name" },
] as const satisfies readonly FieldFlag<AddressField>[];

export type AddressFlags = { file?: string } & Partial<Record<(typeof ADDRESS_FIELD_FLAGS)[number]["key"], string>>;

export function addressFlagFor(field: string): string | undefined {
  return ADDRESS_FIELD_FLAGS.find((f) => f.field === field)?.flag;
}
