// Bodies of the control surface (/_sandbox/*). Strict like the API: an unknown key is a 422 naming it.
import * as z from "zod";
import { SHIPMENT_BOUNDS } from "../../contract/index.js";
import { FAULT_KINDS, LIST_ORDERS } from "../model.js";

/** A whole number from `min` (to `max` when there is one); `note` ends the message ("(a day)"). */
const whole = (field: string, min: number, max = Infinity, note = "") =>
  z.number({ error: `${field} must be a whole number` }).refine((n) => Number.isInteger(n) && n >= min && n <= max, {
    message: `${field} must be a whole number from ${min}${max === Infinity ? "" : ` to ${max}`}${note}`,
  });

const statusValue = z.union([z.number(), z.string()], { error: "status must be a status value (1..12) or name (e.g. \"Delivered\")" });

const timestamp = (field: string) => z.string({ error: `${field} must be a timestamp like "2025-01-31 00:00:00"` });

export const StatusChange = z.strictObject({
  status: statusValue,
  at: timestamp("at").optional(),
});

/** Enough for any paging test, few enough that a seed takes a fraction of a second. */
export const SEED_MAX = 100_000;

/** A prefix, a space and up to 6 digits ("Seed 100000") stay within the contract's title length. */
const SEED_PREFIX_MAX = SHIPMENT_BOUNDS.title.max - 7;

export const SeedRequest = z.strictObject({
  count: whole("count", 1, SEED_MAX),
  created_from: timestamp("created_from").optional(),
  created_step_ms: whole("created_step_ms", 0, 86_400_000, " (a day)").optional(),
  title_prefix: z
    .string({ error: "title_prefix must be text" })
    .refine((t) => t.length >= 1 && t.length <= SEED_PREFIX_MAX && t === t.trim(), { message: `title_prefix must be 1 to ${SEED_PREFIX_MAX} characters, with no space at either end` })
    .optional(),
  status: statusValue.optional(),
});

/** Local time anywhere is within a day of UTC: a lag beyond that is a mistake, not a service. */
const MAX_LAG_MS = 86_400_000;

export const ClockChange = z
  .strictObject({
    at: timestamp("at").optional(),
    ticking: z.boolean({ error: "ticking must be true or false" }).optional(),
    offset_ms: z.number({ error: "offset_ms must be a whole number" }).int({ message: "offset_ms must be a whole number" }).optional(),
    advance_ms: z.number({ error: "advance_ms must be a whole number" }).int({ message: "advance_ms must be a whole number" }).optional(),
    created_at_lag_ms: whole("created_at_lag_ms", -MAX_LAG_MS, MAX_LAG_MS, " (24 hours)").optional(),
  })
  .superRefine((v, ctx) => {
    const given = [v.at, v.offset_ms, v.advance_ms].filter((x) => x !== undefined).length;
    if (given > 1) ctx.addIssue({ code: "custom", path: ["clock"], message: "clock must be set by exactly one of at, offset_ms or advance_ms (created_at_lag_ms may come with it)" });
    if (given === 0 && v.created_at_lag_ms === undefined) {
      ctx.addIssue({ code: "custom", path: ["clock"], message: "clock must be set by one of at, offset_ms or advance_ms, or created_at_lag_ms, or both" });
    }
    if (v.ticking !== undefined && v.at === undefined) ctx.addIssue({ code: "custom", path: ["ticking"], message: "ticking is allowed only with at" });
  });

export const PaymentChange = z
  .strictObject({
    state: z.enum(["valid", "none", "declining", "failing"], { error: "state must be one of valid, none, declining, failing" }),
    count: whole("count", 1).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.count !== undefined && v.state !== "failing") ctx.addIssue({ code: "custom", path: ["count"], message: "count is allowed only with state failing" });
  });

export const SubscriptionChange = z.strictObject({ active: z.boolean({ error: "active must be true or false" }) });

export const CountChange = z.strictObject({ count: whole("count", 0) });

export const PriceFailureChange = z.strictObject({
  count: whole("count", 0),
  status: z.union([z.literal(0), z.literal(1)], { error: "status must be 0 (Rate Limited) or 1 (Failed)" }).optional(),
});

export const ListingChange = z.strictObject({ order: z.enum(LIST_ORDERS, { error: `order must be one of ${LIST_ORDERS.join(", ")}` }) });

/** The kinds that wait, and so take `ms`. */
export const TIMED_FAULTS: ReadonlySet<string> = new Set(["latency", "slow-apply"]);

export const FaultRequest = z
  .strictObject({
    method: z.string({ error: "method must be an HTTP method or \"*\"" }).regex(/^([A-Za-z]+|\*)$/, { message: "method must be an HTTP method or \"*\"" }).optional(),
    path: z.string({ error: "path must be a path pattern like /api/v1/shipments or /api/v1/reports/*/*" }).regex(/^\/|^\*\*$/, {
      message: "path must start with / (patterns: * is one segment, ** any number)",
    }),
    kind: z.enum(FAULT_KINDS, { error: `kind must be one of ${FAULT_KINDS.join(", ")}` }),
    count: whole("count", 1).optional(),
    ms: whole("ms", 0).optional(),
    retry_after: whole("retry_after", 0).optional(),
  })
  .superRefine((v, ctx) => {
    if (TIMED_FAULTS.has(v.kind) && v.ms === undefined) ctx.addIssue({ code: "custom", path: ["ms"], message: `ms is required for kind ${v.kind}` });
    if (v.ms !== undefined && !TIMED_FAULTS.has(v.kind)) ctx.addIssue({ code: "custom", path: ["ms"], message: "ms is allowed only with kind latency or slow-apply" });
    if (v.retry_after !== undefined && v.kind !== "429") ctx.addIssue({ code: "custom", path: ["retry_after"], message: "retry_after is allowed only with kind 429" });
  });
