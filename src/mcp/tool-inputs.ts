// The tools' input schemas, built from the contract's own zod schemas (src/contract/) at the level the CLI takes
// them: a country or service by its integer, or by code or name through the profile's tables (show_tables).
import * as z from "zod";
import { Address, MAX_REFERENCE_LENGTH, PAGE, REPORT, Shipment, ShipmentStatus, positiveInt, shipmentStatusName } from "../contract/index.js";

const byTable = (what: string) =>
  z.string().min(1).describe(`${what}: its integer, or a code or name from the profile's table (show_tables)`);

export const ShipmentId = positiveInt("shipment id").describe("a shipment id (list_shipments shows them)");
export const AddressId = positiveInt("address id").describe("a stored address id");

/** An address as `address verify/add --file` reads it. */
export const AddressInput = z.strictObject({
  ...Address.shape,
  country: z.union([Address.shape.country, byTable("the country (ISO 3166-1 alpha-2 code or English name)")]),
});

const shipmentFields = {
  ...Shipment.shape,
  service: z.union([Shipment.shape.service, byTable("the service")]),
  fulfillment_address: AddressInput.optional(),
  destination_address: AddressInput.optional(),
};

/** A shipment as `shipment update --file` reads it: each side a stored address id or an inline address. */
export const ShipmentInput = z.strictObject(shipmentFields);

/** An item of `shipment create --file`: a shipment, and a reference of your own (never sent) that names it. */
export const ShipmentItem = z.strictObject({
  ...shipmentFields,
  // The CLI counts characters as code points; JSON Schema's maxLength does too (zod's .max would count UTF-16 units).
  reference: z.string().meta({ maxLength: MAX_REFERENCE_LENGTH }).optional().describe("your own key for the item, never sent; a new one creates a new shipment"),
});

/** Fields the command checks itself, with the CLI's messages: the server only checks they are objects. */
export const anObject = z.record(z.string(), z.unknown());

// Each id once, as the command requires ("given more than once"): uniqueItems says so in JSON Schema.
export const ShipmentIds = z.array(ShipmentId).min(1).meta({ uniqueItems: true, description: "shipment ids, each once" });

export const StatusName = z.enum(Object.values(ShipmentStatus).map(shipmentStatusName) as [string, ...string[]]);

export const PageNumber = z.number().int().min(PAGE.firstPage).describe("page to read");
export const PageLimit = z.number().int().min(PAGE.limit.min).max(PAGE.limit.max).describe("items per page");

// One literal of the sets, not a union of two: a wrong set is refused naming them ("expected one of 1|2"), not as
// "Invalid input", and JSON Schema lists them as an enum.
export const ReportSet = z.literal(REPORT.sets).describe("the set: 1 (status Delivered) or 2 (status Arrived)");

/** A path on this machine, relative to the folder the server runs in; never `-` (stdin carries the protocol). */
export const LocalPath = z
  .string()
  .min(1)
  .refine((s) => s.trim() !== "-", { message: "stdin carries the MCP protocol: give a file or folder path, not -" });
