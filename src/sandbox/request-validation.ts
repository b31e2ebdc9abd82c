// Validation failures as the service's framework (Laravel) reports them: 422 with `errors` keyed by dot paths
// (`shipments.3.fulfillment_address.phone`) and one sentence per problem naming that path.
// The field rules themselves live in src/contract (zod); this file only reshapes their verdicts, and adds the
// sandbox's own rules (tables, references, the either-id-or-inline rule reported together with the field errors).
import type { z } from "zod";
import { ADDRESS_SIDES, SANDBOX_COUNTRIES, SANDBOX_SERVICES } from "../contract/index.js";
import { isRecord } from "../contract/json.js";
import { emptyOptionalStringsToNull } from "./empty-strings.js";
import { invalid } from "./http.js";

export type Errors = Record<string, string[]>;

export function addError(errors: Errors, key: string, message: string): void {
  (errors[key] ??= []).push(message);
}

export function joinKey(prefix: string, path: readonly PropertyKey[]): string {
  return (prefix ? [prefix, ...path] : path).map(String).join(".");
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = raw;
  for (const p of path) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * Turns a schema message ("title must be at least 2 characters (got 1)") into the framework's wording naming the full
 * path ("The shipments.0.title field must be at least 2 characters (got 1)."). Messages that do not open with a
 * field name keep their text after "is invalid:".
 */
export function fieldMessage(key: string, message: string): string {
  const lead = /^([A-Za-z_][\w]*(?: id)?) (must|may|is|lists) (.*)$/s.exec(message);
  if (lead) return sentence(`The ${key} field ${lead[2]} ${lead[3]}`);
  return sentence(`The ${key} field is invalid: ${message}`);
}

/** Maps zod issues to errors, skipping keys the caller has already reported in its own words. */
export function zodErrors(issues: readonly z.core.$ZodIssue[], raw: unknown, prefix = "", skip: ReadonlySet<string> = new Set()): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const k of issue.keys) {
        const key = joinKey(prefix, [...issue.path, k]);
        addError(errors, key, `The ${key} field is not allowed.`);
      }
      continue;
    }
    const key = joinKey(prefix, issue.path);
    if (skip.has(key)) continue;
    if (issue.code === "invalid_type" && valueAt(raw, issue.path) === undefined) {
      if (!errors[key]) addError(errors, key, `The ${key} field is required.`);
      continue;
    }
    addError(errors, key, fieldMessage(key, issue.message));
  }
  return errors;
}

/** The sandbox's own checks, which see the raw body and add errors the schema cannot know about. */
export type ExtraCheck = (raw: Record<string, unknown>, errors: Errors) => void;

/**
 * Parses `raw` with a contract schema. An empty string in an optional field first becomes null (absent), as the
 * framework's ConvertEmptyStringsToNull does. Extra checks run next, so their keys win over the schema's messages for
 * the same key; everything found is reported at once, as the framework does.
 */
export function validate<T extends z.ZodType>(schema: T, raw: Record<string, unknown>, prefix = "", ...checks: ExtraCheck[]): z.infer<T> {
  emptyOptionalStringsToNull(schema, raw);
  const own: Errors = {};
  for (const check of checks) check(raw, own);
  const parsed = schema.safeParse(raw);
  if (parsed.success && Object.keys(own).length === 0) return parsed.data;
  const errors: Errors = parsed.success ? {} : zodErrors(parsed.error.issues, raw, prefix, new Set(Object.keys(own)));
  for (const [key, messages] of Object.entries(own)) for (const m of messages) addError(errors, key, m);
  throw invalid(errors);
}

const isPositiveInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 1;
const countryIds = new Set(SANDBOX_COUNTRIES.map((c) => c.id));
const serviceIds = new Set(SANDBOX_SERVICES.map((s) => s.id));

/** Country must be a value of the sandbox's Country table (SANDBOX_TABLES). */
export function checkCountry(address: unknown, keyPrefix: string, errors: Errors): void {
  if (!isRecord(address)) return;
  const c = address.country;
  const key = joinKey(keyPrefix, ["country"]);
  if (isPositiveInt(c) && !countryIds.has(c)) addError(errors, key, `The selected ${key} is invalid.`);
}

/**
 * One shipment's rules beyond its fields: service in the table, inline countries in the table, referenced addresses
 * existing in this organization, and exactly one of id or inline per side (reported with the field errors).
 */
export function checkShipment(shipment: unknown, keyPrefix: string, errors: Errors, addressExists: (id: number) => boolean): void {
  if (!isRecord(shipment)) return;
  const k = (field: string) => joinKey(keyPrefix, [field]);
  if (isPositiveInt(shipment.service) && !serviceIds.has(shipment.service)) {
    addError(errors, k("service"), `The selected ${k("service")} is invalid.`);
  }
  for (const side of ADDRESS_SIDES) {
    const idField = `${side}_address_id`;
    const inlineField = `${side}_address`;
    const id = shipment[idField];
    const inline = shipment[inlineField];
    if (id === undefined && inline === undefined) {
      addError(errors, k(idField), `The ${k(idField)} field is required when ${k(inlineField)} is not present.`);
    } else if (id !== undefined && inline !== undefined) {
      addError(errors, k(inlineField), `The ${k(inlineField)} field is not allowed together with ${k(idField)}: give one or the other.`);
    }
    if (isPositiveInt(id) && !addressExists(id)) addError(errors, k(idField), `The selected ${k(idField)} is invalid.`);
    checkCountry(inline, k(inlineField), errors);
  }
}
