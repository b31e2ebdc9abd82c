// The writing tools: each runs the shipctl command named in its description with --json, through the same ledger as
// from the command line, so a repeated call never creates or charges twice. They run with --no-wait: a request an
// earlier call left in flight (its answer lost) is reported "in flight" with the time after which a call settles it,
// never resent blindly and never waited for inside a tool call.
import * as z from "zod";
import { flag, when } from "./read-tools.js";
import { AddressInput, LocalPath, ReportSet, ShipmentId, ShipmentIds, ShipmentInput, ShipmentItem, anObject } from "./tool-inputs.js";
import { defineTool, type McpTool } from "./tool-types.js";
import { UsageError } from "../errors.js";

const IN_FLIGHT =
  " A request whose answer was lost is reported in flight, with the time after which calling again settles it; it is never sent twice.";

export const addAddress = defineTool({
  name: "add_address",
  description:
    "Verify an address, then store it once (shipctl address add): returns {id, address, already_stored}. The same " +
    "address again returns the id stored before and stores nothing. A revision the service recommends is stored only " +
    "with accept_recommended; otherwise the call fails showing it." + IN_FLIGHT,
  input: z.strictObject({
    address: AddressInput,
    accept_recommended: z.boolean().optional().describe("store the service's recommended revision"),
    verify: z.boolean().optional().describe("false: store without verifying first (default true)"),
    force_new: z.boolean().optional().describe("store it even though the same address is stored already: each call with it that succeeds stores one more copy, so do not repeat it once it has answered"),
  }),
  gate: z.strictObject({ address: anObject, accept_recommended: z.boolean().optional(), verify: z.boolean().optional(), force_new: z.boolean().optional() }),
  writes: "address",
  command: (i) => ({
    argv: ["address", "add", "--file", "-", "--no-wait", ...when(i.accept_recommended, "--accept-recommended"), ...when(i.verify === false, "--no-verify"), ...when(i.force_new, "--force-new")],
    stdin: i.address,
  }),
});

const sendFlags = (i: { accept_recommended?: boolean; verify?: boolean; skip_invalid?: boolean; dry_run?: boolean; force_new?: boolean }) => [
  "--no-wait",
  ...when(i.accept_recommended, "--accept-recommended"),
  ...when(i.verify === false, "--no-verify"),
  ...when(i.skip_invalid, "--skip-invalid"),
  ...when(i.dry_run, "--dry-run"),
  ...when(i.force_new, "--force-new"),
];

const sendOptions = {
  accept_recommended: z.boolean().optional().describe("use the service's recommended revision of an inline address"),
  verify: z.boolean().optional().describe("false: do not verify inline addresses (default true)"),
  skip_invalid: z.boolean().optional().describe("send the valid items when some are invalid (default: send nothing)"),
  dry_run: z.boolean().optional().describe("say what would be sent; send nothing"),
};

export const createShipments = defineTool({
  name: "create_shipments",
  description:
    "Create shipments (shipctl shipment create) from items (JSON objects, as --file takes them) or a CSV file (csv: " +
    "a path). Every item is checked first: an invalid item is refused with the CLI's message and nothing is sent. " +
    "Returns {created, failed, skipped, matched, counts}. The same call again creates nothing new (the ledger reports the ids " +
    "created before); an item matching a shipment another machine created in the last days is not sent but listed in " +
    "matched (force_new sends it); a new reference makes an item a new shipment. Countries and services by code or name (show_tables)." + IN_FLIGHT,
  input: z.strictObject({
    items: z.array(ShipmentItem).min(1).optional().describe("the shipments, each a JSON object"),
    csv: LocalPath.optional().describe("a CSV file of shipments (shipctl shipment template), instead of items"),
    results: LocalPath.optional().describe("with csv: write the rows with their outcome to this CSV file"),
    force_new: z.boolean().optional().describe("send even items that match a shipment another machine created in the last days (default: report them matched)"),
    ...sendOptions,
  }),
  gate: z.strictObject({
    items: z.array(anObject).min(1).optional(),
    csv: LocalPath.optional(),
    results: LocalPath.optional(),
    force_new: z.boolean().optional(),
    ...sendOptions,
  }),
  writes: "shipment",
  command: (i) => {
    if ((i.items === undefined) === (i.csv === undefined)) throw new UsageError("give either items or csv, not both and not neither");
    if (i.csv === undefined) {
      if (i.results !== undefined) throw new UsageError("results is for csv: with items, the result lists every item's outcome");
      return { argv: ["shipment", "create", "--file", "-", ...sendFlags(i)], stdin: i.items };
    }
    return { argv: ["shipment", "create", ...flag("--csv", i.csv), ...flag("--results", i.results), ...sendFlags(i)] };
  },
});

export const updateShipment = defineTool({
  name: "update_shipment",
  description:
    "Replace a Draft shipment's details (shipctl shipment update): every field is needed (title, value, length, height, " +
    "depth, service, and per side an address id or an inline address). Checked first; returns {id, shipment}.",
  input: z.strictObject({ id: ShipmentId, shipment: ShipmentInput }),
  gate: z.strictObject({ id: ShipmentId, shipment: anObject }),
  writes: "shipment",
  destructive: true,
  command: ({ id, shipment }) => ({ argv: ["shipment", "update", String(id), "--file", "-"], stdin: shipment }),
});

export const checkout = defineTool({
  name: "checkout",
  description:
    "Pay for shipments with the organization's payment method (shipctl checkout --yes --confirm-total): prices them " +
    "again and pays only when the total equals confirm_total_cents, the value quote_checkout returned for the same ids; " +
    "another total is refused and nothing is charged. Shipments already paid are skipped, so a repeated call never " +
    "charges twice." + IN_FLIGHT,
  input: z.strictObject({
    ids: ShipmentIds,
    confirm_total_cents: z.number().int().min(0).describe("confirm_total_cents from quote_checkout for these ids"),
  }),
  writes: "checkout",
  destructive: true,
  command: ({ ids, confirm_total_cents }) => ({
    argv: ["checkout", ...ids.map(String), "--yes", "--no-wait", `--confirm-total=${(confirm_total_cents / 100).toFixed(2)}`],
  }),
});

export const uploadReport = defineTool({
  name: "upload_report",
  description:
    "Upload a condition report (shipctl report upload): the 12 photos in a folder (box and art, each side) as set 1 " +
    "(status Delivered, within 30 days) or set 2 (status Arrived, within 24 hours), with the command's checks first. " +
    "A set is stored once: the report ledger knows it." + IN_FLIGHT,
  input: z.strictObject({
    shipment_id: ShipmentId,
    folder: LocalPath.describe("the folder holding the 12 photos"),
    set: ReportSet,
    fit: z.boolean().optional().describe("send copies of at most 1,000,000 bytes of larger photos (originals untouched)"),
    allow_reused: z
      .boolean()
      .optional()
      .describe("send the set although some of its photos were sent in another set, byte for byte (refused otherwise); only when the user says these photos are meant"),
  }),
  writes: "report",
  command: (i) => ({
    // After `--`, a folder whose name starts with a dash is still a folder.
    argv: [
      "report", "upload", "--no-wait", `--set=${i.set}`, ...when(i.fit, "--fit"), ...when(i.allow_reused, "--allow-reused"),
      "--", String(i.shipment_id), i.folder,
    ],
  }),
});

export const WRITE_TOOLS: readonly McpTool[] = [addAddress, createShipments, updateShipment, checkout, uploadReport];
