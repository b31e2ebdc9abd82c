// The service's framework (Laravel) turns empty strings in a request into null before validating it (its
// ConvertEmptyStringsToNull middleware), so `"line_2": ""` is an absent line_2 there, not a line_2 that is too short.
// It runs after TrimStrings, so a whitespace-only string ("   ") is empty there too and becomes null as well.
// The sandbox reads bodies the same way for every optional string: a field whose contract schema takes null.
// Fields are found by walking the schema rather than listed here, so an optional string added to the contract later
// is covered too. Required fields are left alone: "" there keeps answering "The name field is required."
import * as z from "zod";

/** Replaces "" (or whitespace only) by null, in place, wherever `schema` has a field that takes null; objects and lists are walked. */
export function emptyOptionalStringsToNull(schema: z.ZodType, value: unknown): void {
  const inner = unwrapOptional(schema);
  if (inner instanceof z.ZodArray) {
    if (Array.isArray(value)) for (const item of value) emptyOptionalStringsToNull(inner.element as z.ZodType, item);
    return;
  }
  if (!(inner instanceof z.ZodObject) || typeof value !== "object" || value === null || Array.isArray(value)) return;
  const record = value as Record<string, unknown>;
  for (const [key, field] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
    const text = record[key];
    if (typeof text === "string" && text.trim() === "" && field.safeParse(null).success) record[key] = null;
    else emptyOptionalStringsToNull(field, record[key]);
  }
}

function unwrapOptional(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
  return s;
}
