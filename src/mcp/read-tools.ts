// The reading tools: each runs the shipctl command named in its description with --json and returns its document.
// None writes anything (quote_checkout prices without paying), so `shipctl mcp --read-only` lists only these.
import * as z from "zod";
import { AddressId, AddressInput, LocalPath, PageLimit, PageNumber, ShipmentId, ShipmentIds, StatusName, anObject } from "./tool-inputs.js";
import { defineTool, type McpTool } from "./tool-types.js";
import { PRINTED_SHIPMENT_FIELDS } from "../contract/fields.js";

/** `--flag=value` when the value is given: one word, so a value starting with a dash is never read as a flag. */
export function flag(name: string, value: string | number | undefined): string[] {
  return value === undefined ? [] : [`${name}=${value}`];
}

/** `--flag` alone when `on`. */
export function when(on: boolean | undefined, name: string): string[] {
  return on ? [name] : [];
}

export const verifyAddress = defineTool({
  name: "verify_address",
  description:
    "Ask the service whether an address is deliverable (shipctl address verify). Stores nothing. Returns the verdict; " +
    "an invalid address, or one the service would revise (the revision is in the result), is a tool error with the verdict.",
  input: z.strictObject({ address: AddressInput }),
  gate: z.strictObject({ address: anObject }),
  command: ({ address }) => ({ argv: ["address", "verify", "--file", "-"], stdin: address }),
});

export const getAddress = defineTool({
  name: "get_address",
  description: "A stored address by id (shipctl address get).",
  input: z.strictObject({ id: AddressId }),
  command: ({ id }) => ({ argv: ["address", "get", String(id)] }),
});

/**
 * What list_shipments keeps of each shipment unless `fields` says otherwise: enough to pick shipments out and act on
 * them, without both addresses of every record (get_shipment reads one in full).
 */
export const LIST_SHIPMENTS_DEFAULT_FIELDS = ["id", "title", "status_name", "price", "created_at"] as const;

const listShipmentsFilters = {
  status: z.array(StatusName).min(1).optional().describe("only shipments with these statuses"),
  created_after: z.string().min(1).optional(),
  created_before: z.string().min(1).optional(),
  title: z.string().min(1).optional(),
  page: PageNumber.optional(),
  limit: PageLimit.optional(),
  all: z.boolean().optional().describe("read every page from page on"),
  max: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "at most this many shipments in all. When it stops part way through a page, next_page is that same page: the " +
        "same call again returns the same shipments; a larger max returns more",
    ),
};

export const listShipments = defineTool({
  name: "list_shipments",
  description:
    "List shipments (shipctl list shipments): a page at a time, or every page with all, max or a filter. " +
    "Filters: status names, created_after / created_before (a date 2026-03-01 or a date and time, UTC unless a zone is " +
    "given; after includes, before excludes), title (contains, any case). Returns {shipments, page, per_page, next_page} " +
    "(next_page: the page to read on from with page, null after the last). " +
    `Each shipment has only the fields named in fields (shipctl list shipments --fields); by default ${LIST_SHIPMENTS_DEFAULT_FIELDS.join(", ")}. ` +
    "Name the fields you need (e.g. destination_address); get_shipment reads one shipment in full.",
  input: z.strictObject({
    ...listShipmentsFilters,
    fields: z.array(z.enum(PRINTED_SHIPMENT_FIELDS as [string, ...string[]])).min(1).optional().describe("the fields to keep of each shipment, in this order"),
  }),
  // The field names are checked by the command, so a wrong one is refused with --fields' own message (and list).
  gate: z.strictObject({ ...listShipmentsFilters, fields: z.array(z.string()).optional() }),
  command: (i) => ({
    argv: [
      "list",
      "shipments",
      ...(i.status ?? []).flatMap((s) => flag("--status", s)),
      ...flag("--created-after", i.created_after),
      ...flag("--created-before", i.created_before),
      ...flag("--title", i.title),
      ...flag("--page", i.page),
      ...flag("--limit", i.limit),
      ...when(i.all, "--all"),
      ...flag("--max", i.max),
      ...flag("--fields", (i.fields ?? LIST_SHIPMENTS_DEFAULT_FIELDS).join(",")),
    ],
  }),
});

export const getShipment = defineTool({
  name: "get_shipment",
  description: "A shipment by id (shipctl shipment get): status, price in cents, addresses, timestamps and its condition-report sets.",
  input: z.strictObject({ id: ShipmentId }),
  command: ({ id }) => ({ argv: ["shipment", "get", String(id)] }),
});

export const showTables = defineTool({
  name: "show_tables",
  description:
    "The profile's Country and Service tables (shipctl config tables show): the codes and names the other tools take " +
    "for country and service. Use these; never guess an integer.",
  input: z.strictObject({ table: z.enum(["countries", "services"]).optional().describe("one table (default both)") }),
  command: ({ table }) => ({ argv: ["config", "tables", "show", ...(table ? [table] : [])] }),
});

export const quoteCheckout = defineTool({
  name: "quote_checkout",
  description:
    "Price shipments without paying (shipctl checkout --quote): sends no payment. Shipments no longer Draft are listed " +
    "as already_paid and not priced. Returns the prices in cents and confirm_total_cents: pass it to checkout for the same ids.",
  input: z.strictObject({ ids: ShipmentIds }),
  // The service pays a shipment in the price session that last priced it: a quote made while a checkout of the same
  // shipment is between its price and its payment would have that payment refused.
  waitsFor: "checkout",
  command: ({ ids }) => ({ argv: ["checkout", ...ids.map(String), "--quote"] }),
  finish: (doc) => ({ ...doc, confirm_total_cents: doc.total }),
});

export const due = defineTool({
  name: "due",
  description:
    "What needs a person, most urgent first (shipctl due): open condition-report windows, unpaid drafts, windows " +
    "missed lately, each with the command to run next. An open window is not an error.",
  input: z.strictObject({
    within: z.string().min(1).optional().describe("only report windows closing within this span (6h, 2d)"),
    since: z.string().min(1).optional().describe("also windows closed in this many days (7, or 48h)"),
    created_after: z
      .string()
      .min(1)
      .optional()
      .describe(
        "read shipments created within this span (180d) or since this date or time (2026-03-01; UTC unless a zone is " +
          "given)",
      ),
    all_history: z.boolean().optional().describe("read every shipment, however old"),
    photos: LocalPath.optional().describe("the folder whose <id> subfolders the next commands name (default ./photos)"),
  }),
  command: (i) => ({
    argv: [
      "due",
      ...flag("--within", i.within),
      ...flag("--since", i.since),
      ...flag("--created-after", i.created_after),
      ...when(i.all_history, "--all-history"),
      ...flag("--photos", i.photos),
    ],
  }),
});

export const READ_TOOLS: readonly McpTool[] = [verifyAddress, getAddress, listShipments, getShipment, showTables, quoteCheckout, due];
