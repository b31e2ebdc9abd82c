// The contract's requests and responses as zod schemas.
// Requests are strict: unknown keys are rejected and every bound of limits.ts applies (inclusive edges), so the CLI
// can refuse bad input before sending and the sandbox can answer 422 exactly where the real service would.
// Responses are loose: the CLI must keep working when the service adds fields it does not know yet.
import * as z from "zod";
import { ADDRESS_LENGTHS, E164, PAGE, SHIPMENT_BOUNDS, SHIPMENTS_PER_CHECKOUT, SHIPMENTS_PER_CREATE, charLength, isScientific, type Range } from "./limits.js";

// Every bound is also written where z.toJSONSchema reads it (`shipctl mcp` sends it to assistants): numbers through
// .int/.min/.max, text lengths as minLength/maxLength metadata. Lengths stay a refinement because the service counts
// code points, as JSON Schema's minLength/maxLength do, while zod's .min/.max on a string count UTF-16 units and
// would refuse a title of 30 emoji that the service takes. Metadata sits on the last schema of a chain (a refine
// or regex after it makes a new schema without it): hence `lengths(...)` at the end.

/** Text whose length (in characters) must be within `range`; `lengths(range)` then states it for JSON Schema. */
function lengthChecked(field: string, range: Range) {
  return z.string({ error: `${field} must be a string` }).superRefine((s, ctx) => {
    const n = charLength(s);
    if (s.trim() === "") ctx.addIssue({ code: "custom", message: `${field} is required` });
    else if (n < range.min) ctx.addIssue({ code: "custom", message: `${field} must be at least ${range.min} characters (got ${n})` });
    else if (n > range.max) ctx.addIssue({ code: "custom", message: `${field} may be at most ${range.max} characters (got ${n})` });
  });
}

/** The JSON Schema form of a length range (for .meta). */
function lengths(range: Range) {
  return { minLength: range.min, maxLength: range.max };
}

function boundedText(field: string, range: Range) {
  return lengthChecked(field, range).meta(lengths(range));
}

/** Not a number: a text in scientific notation (a flag's "1e21") is told so, not "not whole". */
function notANumber(field: string) {
  return (issue: { input: unknown }) =>
    typeof issue.input === "string" && isScientific(issue.input) ? `${field} is in scientific notation: write the number in plain digits` : `${field} must be a whole number`;
}

function boundedInt(field: string, range: Range, unit = "") {
  const suffix = unit ? ` ${unit}` : "";
  // The value is in the message, so a CSV row and a flag read the same ("(got 20000)"), wherever it is shown.
  const between = (issue: { input: unknown }) => `${field} must be between ${range.min} and ${range.max}${suffix} (got ${String(issue.input)})`;
  return z
    .number({ error: notANumber(field) })
    // abort: a fraction is told it is not whole, not also out of range; a whole number too large to hold exactly
    // (above 2^53 - 1) is out of range.
    .int({ error: (issue) => (Number.isInteger(issue.input) ? between(issue) : `${field} must be a whole number`), abort: true })
    .min(range.min, { error: between })
    .max(range.max, { error: between });
}

/** A positive integer id or enum value. */
export function positiveInt(field: string) {
  const message = `${field} must be a positive whole number`;
  // A whole number too large to hold exactly (above 2^53 - 1): too large, not "not whole".
  const notInt = (issue: { input: unknown }) => (Number.isInteger(issue.input) ? `${field} is too large` : message);
  return z.number({ error: notANumber(field) }).int({ error: notInt, abort: true }).min(1, { error: message });
}

const L = ADDRESS_LENGTHS;

export const Email = lengthChecked("email", L.email)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: "email must be an email address like name@example.com" })
  .meta(lengths(L.email));

export const Phone = lengthChecked("phone", L.phone)
  .regex(E164, { message: "phone must be in E.164 format: +, country code and number, no spaces or dashes (e.g. +12069536978)" })
  .meta(lengths(L.phone));

/** The Address fields: the same set for verify, create, update and inline addresses in shipments. */
export const Address = z.strictObject({
  name: boundedText("name", L.name),
  email: Email,
  phone: Phone,
  line_1: boundedText("line_1", L.line_1),
  // Optional; null is read as absent (the service's framework turns empty strings into null).
  line_2: boundedText("line_2", L.line_2).nullish(),
  city: boundedText("city", L.city),
  region: boundedText("region", L.region),
  post_code: boundedText("post_code", L.post_code),
  country: positiveInt("country"),
});
export type Address = z.infer<typeof Address>;

const S = SHIPMENT_BOUNDS;

const shipmentFields = {
  title: boundedText("title", S.title),
  value: boundedInt("value", S.value, "USD"),
  length: boundedInt("length", S.length, "inches"),
  height: boundedInt("height", S.height, "inches"),
  depth: boundedInt("depth", S.depth, "inches"),
  service: positiveInt("service"),
  fulfillment_address_id: positiveInt("fulfillment_address_id").optional(),
  fulfillment_address: Address.optional(),
  destination_address_id: positiveInt("destination_address_id").optional(),
  destination_address: Address.optional(),
};

export const ADDRESS_SIDES = ["fulfillment", "destination"] as const;
export type AddressSide = (typeof ADDRESS_SIDES)[number];

/**
 * Shipment for create and update (PATCH /api/v1/shipments/{id} takes the same object as one created shipment): the
 * same fields and rules; each side takes exactly one of id or inline address.
 */
export const Shipment = z.strictObject(shipmentFields).superRefine((s, ctx) => {
  for (const side of ADDRESS_SIDES) {
    const hasId = s[`${side}_address_id`] !== undefined;
    const hasInline = s[`${side}_address`] !== undefined;
    if (hasId === hasInline) {
      ctx.addIssue({
        code: "custom",
        path: [hasId ? `${side}_address` : `${side}_address_id`],
        message: hasId
          ? `give either ${side}_address_id or ${side}_address, not both`
          : `${side}_address_id or ${side}_address is required`,
      });
    }
  }
});
export type Shipment = z.infer<typeof Shipment>;

function idList(field: string, range: Range) {
  return z
    .array(positiveInt(`${field} id`), { error: `${field} must be a list of shipment ids` })
    .min(range.min, { message: `${field} must list at least ${range.min} shipment id` })
    .max(range.max, { message: `${field} may list at most ${range.max} shipment ids` })
    .refine((ids) => new Set(ids).size === ids.length, { message: `${field} lists a shipment id twice` });
}

/** POST /api/v1/shipments */
export const CreateShipmentsRequest = z.strictObject({
  shipments: z
    .array(Shipment, { error: "shipments must be a list of shipments" })
    .min(SHIPMENTS_PER_CREATE.min, { message: `shipments must hold at least ${SHIPMENTS_PER_CREATE.min} shipment` })
    .max(SHIPMENTS_PER_CREATE.max, { message: `shipments may hold at most ${SHIPMENTS_PER_CREATE.max} shipments` }),
});
export type CreateShipmentsRequest = z.infer<typeof CreateShipmentsRequest>;

/** GET /api/v1/checkout (price session) and POST /api/v1/checkout (finalize): ids in. */
export const CheckoutRequest = z.strictObject({ shipments: idList("shipments", SHIPMENTS_PER_CHECKOUT) });
export type CheckoutRequest = z.infer<typeof CheckoutRequest>;

/** `limit` and `page` of paginated reads, as the query string carries them. */
export const PageQuery = z.strictObject({
  page: z.coerce.number().int().min(PAGE.firstPage, { message: "page must be a whole number from 1" }).default(PAGE.firstPage),
  limit: z.coerce
    .number()
    .int({ message: "limit must be a whole number" })
    .min(PAGE.limit.min, { message: `limit must be between ${PAGE.limit.min} and ${PAGE.limit.max}` })
    .max(PAGE.limit.max, { message: `limit must be between ${PAGE.limit.min} and ${PAGE.limit.max}` })
    .default(PAGE.defaultLimit),
});

// ---- Responses (loose) ----

/** `YYYY-MM-DD HH:MM:SS` (UTC) as the guide says; read leniently. */
export const Timestamp = z.string();

/** 201 of POST /api/v1/shipments: one `{id, title}` per created shipment (in no order the contract names: shipments/create-sender.ts). */
export const CreateShipmentsResponse = z.looseObject({
  shipments: z.array(z.looseObject({ id: z.number().int(), title: z.string() })),
});
export type CreateShipmentsResponse = z.infer<typeof CreateShipmentsResponse>;

/** 201 of POST /api/v1/addresses */
export const CreateAddressResponse = z.looseObject({ id: z.number().int() });

/** The Address fields as an answer carries them (a stored address, a verdict, a shipment's side). */
export const answeredAddressFields = {
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  line_1: z.string(),
  line_2: z.string().nullish(),
  city: z.string(),
  region: z.string(),
  post_code: z.string(),
  country: z.number().int(),
};

/** 400 of POST /api/v1/addresses/verify: the address (possibly revised) and the verdict. */
export const VerifyFailureBody = z.looseObject({
  ...answeredAddressFields,
  recommended: z.boolean(),
  status: z.number().int(),
  message: z.string(),
});
export type VerifyFailureBody = z.infer<typeof VerifyFailureBody>;

export const StoredAddress = z.looseObject({
  id: z.number().int(),
  ...answeredAddressFields,
  created_at: Timestamp.nullish(),
  updated_at: Timestamp.nullish(),
});
export type StoredAddress = z.infer<typeof StoredAddress>;


/** `{data: ...}`: how single resources come back. */
export function Wrapped<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: item });
}

const PageLinks = z.looseObject({
  first: z.string(),
  last: z.null(),
  prev: z.string().nullable(),
  next: z.string().nullable(),
});

/** `from`/`to` are null on an empty page ([assume], as the framework does). */
const PageMeta = z.looseObject({
  current_page: z.number().int(),
  from: z.number().int().nullable(),
  path: z.string(),
  per_page: z.number().int(),
  to: z.number().int().nullable(),
});

/** The paginated page of api.md. */
export function Page<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: z.array(item), links: PageLinks, meta: PageMeta });
}
export type PageOf<T> = { data: T[]; links: z.infer<typeof PageLinks>; meta: z.infer<typeof PageMeta> };

/** GET /api/v1/checkout: the price of each shipment in US cents, keyed by id, and their total. */
export const PriceSessionResponse = z.looseObject({
  shipments: z.record(z.string(), z.number().int()),
  total: z.number().int(),
});
export type PriceSessionResponse = z.infer<typeof PriceSessionResponse>;

/** `{status, message}`: checkout failures (402, 409) and price-session failures (500). */
export const StatusMessage = z.looseObject({ status: z.number().int(), message: z.string() });
export type StatusMessage = z.infer<typeof StatusMessage>;

/** [assume] Laravel-style validation failure. */
export const ValidationErrorBody = z.looseObject({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
});
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;
