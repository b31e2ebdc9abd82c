// Each endpoint of the contract, declared once: its route, the builder of its CallSpec (endpoints.ts), what
// `shipctl api` does with it, and which MCP tool offers it. The ApiClient's methods are derived from this table
// (client-types.ts, client.ts), and so is the `api` guard (raw-api/guarded-writes.ts); test/unit/api/
// endpoint-table.test.ts checks it against the sandbox's routes and the MCP tools.
import type { CallSpec } from "./call.js";
import {
  createAddress,
  createShipments,
  finalizeCheckout,
  getAddress,
  getShipment,
  listAddresses,
  listShipments,
  priceShipments,
  updateAddress,
  updateShipment,
  uploadReport,
  verifyAddress,
} from "./endpoints.js";

/**
 * What `shipctl api` does with an endpoint: "sends" it, or "refuses" a write the service cannot be asked twice about
 * (no idempotency key) and names the command that records it before sending (raw-api/guarded-writes.ts).
 */
export type RawApiDecision = "sends" | { refuses: { effect: string; command: string } };

/** The MCP tool that offers an endpoint, or why none does. */
export type McpDecision = { tool: string } | { none: string };

export interface Endpoint<B extends (...args: never[]) => CallSpec<unknown>> {
  /** "METHOD /path", `{name}` for a path parameter: the contract's spelling. */
  route: string;
  /** Its CallSpec from the method's arguments. No default values: the method splits its options off at build.length. */
  build: B;
  rawApi: RawApiDecision;
  mcp: McpDecision;
}

const endpoint = <B extends (...args: never[]) => CallSpec<unknown>>(e: Endpoint<B>) => e;

/** The contract's endpoints: one ApiClient method each, under the same name. */
export const ENDPOINTS = {
  verifyAddress: endpoint({ route: "POST /api/v1/addresses/verify", build: verifyAddress, rawApi: "sends", mcp: { tool: "verify_address" } }),
  createAddress: endpoint({
    route: "POST /api/v1/addresses",
    build: createAddress,
    rawApi: { refuses: { effect: "stores an address", command: "shipctl address add" } },
    mcp: { tool: "add_address" },
  }),
  updateAddress: endpoint({
    route: "PATCH /api/v1/addresses/{id}",
    build: updateAddress,
    rawApi: "sends",
    mcp: { none: "shipments copy an address when created: changing a stored one is an office task, not an assistant's" },
  }),
  getAddress: endpoint({ route: "GET /api/v1/addresses/{id}", build: getAddress, rawApi: "sends", mcp: { tool: "get_address" } }),
  listAddresses: endpoint({
    route: "GET /api/v1/addresses",
    build: listAddresses,
    rawApi: "sends",
    mcp: { none: "add_address finds a stored twin itself; a whole address ledger is not an assistant's input" },
  }),
  createShipments: endpoint({
    route: "POST /api/v1/shipments",
    build: createShipments,
    rawApi: { refuses: { effect: "creates shipments", command: "shipctl shipment create --file FILE.json (or --csv FILE.csv)" } },
    mcp: { tool: "create_shipments" },
  }),
  updateShipment: endpoint({ route: "PATCH /api/v1/shipments/{id}", build: updateShipment, rawApi: "sends", mcp: { tool: "update_shipment" } }),
  getShipment: endpoint({ route: "GET /api/v1/shipments/{id}", build: getShipment, rawApi: "sends", mcp: { tool: "get_shipment" } }),
  listShipments: endpoint({ route: "GET /api/v1/shipments", build: listShipments, rawApi: "sends", mcp: { tool: "list_shipments" } }),
  priceShipments: endpoint({ route: "GET /api/v1/checkout", build: priceShipments, rawApi: "sends", mcp: { tool: "quote_checkout" } }),
  finalizeCheckout: endpoint({
    route: "POST /api/v1/checkout",
    build: finalizeCheckout,
    rawApi: { refuses: { effect: "charges the organization's card", command: "shipctl checkout" } },
    mcp: { tool: "checkout" },
  }),
  uploadReport: endpoint({
    route: "POST /api/v1/reports/{id}/{set}",
    build: uploadReport,
    rawApi: { refuses: { effect: "stores a condition report", command: "shipctl report upload" } },
    mcp: { tool: "upload_report" },
  }),
};

export type EndpointName = keyof typeof ENDPOINTS;
