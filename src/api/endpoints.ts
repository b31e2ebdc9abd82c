// Each endpoint of the contract, declared once: ENDPOINTS (at the end) names its builder of a CallSpec (method, path,
// body, whether it is safe to send again, how its answers read), what `shipctl api` does with it, and which MCP tool
// offers it. The ApiClient's methods are derived from it (client-types.ts); the retry loop (call.ts) and the generic
// error mapping (error-map.ts) do the rest. test/unit/api/endpoint-table.test.ts checks the table against the
// sandbox's routes, the MCP tools and the `api` guard.
import type { z } from "zod";
import {
  AddressVerificationStatus,
  CheckoutSessionStatus,
  CreateAddressResponse,
  CreateShipmentsResponse,
  Page,
  PriceSessionResponse,
  StatusMessage,
  StoredAddress,
  StoredShipment,
  VerifyFailureBody,
  Wrapped,
  checkoutStatusName,
  type Address,
  type PageOf,
  type ReportSet,
  type Shipment,
} from "../contract/index.js";
import type { CallSpec, Verdict } from "./call.js";
import { ServerError, UpstreamRateLimitedError, type RequestFacts } from "./api-errors.js";
import type { Redactor } from "./redact.js";
import { cleanText } from "./redact.js";
import type { WireResponse } from "./transport.js";
import { parseAnswer } from "./answer-check.js";
import type { MultipartBody, PageQuery, PreparedJson, VerifyOutcome } from "./client-types.js";

const isSuccess = (response: WireResponse) => response.status >= 200 && response.status < 300;

/** 2xx -> the body checked against `schema`, then `pick`ed; other statuses go to the generic mapping. */
function expectJson<S extends z.ZodType, T>(schema: S, pick: (value: z.infer<S>) => T) {
  return (response: WireResponse, facts: RequestFacts, redact: Redactor): Verdict<T> | undefined =>
    isSuccess(response) ? { done: pick(parseAnswer(schema, response.text, facts, redact)) } : undefined;
}

/** 2xx (201, 204...) -> done; whatever body came with it is not needed. */
function expectNoContent(response: WireResponse): Verdict<void> | undefined {
  return isSuccess(response) ? { done: undefined } : undefined;
}

const identity = <T>(value: T): T => value;
const unwrap = <T>(value: { data: T }): T => value.data;

const ShipmentPage = Page(StoredShipment);
const AddressPage = Page(StoredAddress);
const WrappedShipment = Wrapped(StoredShipment);
const WrappedAddress = Wrapped(StoredAddress);

export function verifyAddress(address: Address): CallSpec<VerifyOutcome> {
  return {
    method: "POST",
    path: "/api/v1/addresses/verify",
    json: address,
    // Verification stores nothing: a read in effect, safe to send again.
    idempotent: true,
    interpret(response, facts, redact) {
      if (isSuccess(response)) return { done: { valid: true } };
      if (response.status !== 400) return undefined;
      const verdict = readJson(response.text, VerifyFailureBody);
      // A 400 of another shape (a validation failure) goes to the generic mapping.
      if (verdict === undefined) return undefined;
      if (verdict.status === AddressVerificationStatus.RateLimited) {
        return {
          retry: new UpstreamRateLimitedError(
            facts,
            `The service's address verifier stayed rate limited (status 0${verdict.message ? `: ${cleanText(redact(verdict.message), 120)}` : ""}); the address was not verified`,
            { hint: "Try again in a minute or two." },
          ),
          reason: "address verifier rate limited (status 0)",
        };
      }
      return { done: { valid: false, result: verdict } };
    },
  };
}

export function createAddress(address: Address): CallSpec<{ id: number }> {
  return {
    method: "POST",
    path: "/api/v1/addresses",
    json: address,
    idempotent: false,
    interpret: expectJson(CreateAddressResponse, (value) => ({ id: value.id })),
  };
}

export function updateAddress(id: number, address: Address): CallSpec<void> {
  return {
    method: "PATCH",
    path: `/api/v1/addresses/${id}`,
    json: address,
    // The whole address is sent: sending it twice leaves the same result.
    idempotent: true,
    resource: `address ${id}`,
    interpret: expectNoContent,
  };
}

export function getAddress(id: number): CallSpec<StoredAddress> {
  return {
    method: "GET",
    path: `/api/v1/addresses/${id}`,
    idempotent: true,
    resource: `address ${id}`,
    interpret: expectJson(WrappedAddress, unwrap),
  };
}

export function listAddresses(query?: PageQuery): CallSpec<PageOf<StoredAddress>> {
  return {
    method: "GET",
    path: "/api/v1/addresses",
    query: pageQuery(query),
    idempotent: true,
    interpret: expectJson(AddressPage, identity),
  };
}

/** The body of createShipments(shipments), serialized now (see PreparedJson). */
export function prepareCreateShipments(shipments: Shipment[]): PreparedJson<Shipment[]> {
  return { value: shipments, bytes: Buffer.from(JSON.stringify({ shipments }), "utf8") };
}

export function createShipments(shipments: Shipment[], prepared?: PreparedJson<Shipment[]>): CallSpec<CreateShipmentsResponse> {
  return {
    method: "POST",
    path: "/api/v1/shipments",
    json: { shipments },
    jsonBytes: prepared?.value === shipments ? prepared.bytes : undefined,
    idempotent: false,
    interpret: expectJson(CreateShipmentsResponse, identity),
  };
}

export function updateShipment(id: number, shipment: Shipment): CallSpec<void> {
  return {
    method: "PATCH",
    path: `/api/v1/shipments/${id}`,
    json: shipment,
    idempotent: true,
    resource: `shipment ${id}`,
    interpret: expectNoContent,
  };
}

export function getShipment(id: number): CallSpec<StoredShipment> {
  return {
    method: "GET",
    path: `/api/v1/shipments/${id}`,
    idempotent: true,
    resource: `shipment ${id}`,
    interpret: expectJson(WrappedShipment, unwrap),
  };
}

export function listShipments(query?: PageQuery): CallSpec<PageOf<StoredShipment>> {
  return {
    method: "GET",
    path: "/api/v1/shipments",
    query: pageQuery(query),
    idempotent: true,
    interpret: expectJson(ShipmentPage, identity),
  };
}

/** A `links.next` URL, already taken onto the base URL (api/pagination-link.ts): the list endpoints' next pages. */
export function nextPage(kind: "shipments" | "addresses", url: URL): CallSpec<PageOf<StoredShipment>> | CallSpec<PageOf<StoredAddress>> {
  const base = { method: "GET" as const, path: url.pathname, url, idempotent: true };
  return kind === "shipments"
    ? { ...base, interpret: expectJson(ShipmentPage, identity) }
    : { ...base, interpret: expectJson(AddressPage, identity) };
}

export function priceShipments(ids: number[]): CallSpec<PriceSessionResponse> {
  return {
    method: "GET",
    path: "/api/v1/checkout",
    // [assume] (contract-notes): the guide shows the ids as a JSON body on this GET; they go both ways, the query
    // for servers that ignore a GET body. undici closes the connection after a GET with a body (some servers
    // misread one), so this request does not reuse its connection.
    query: ids.map((id) => `shipments[]=${id}`).join("&"),
    json: { shipments: ids },
    idempotent: true,
    interpret(response, facts, redact) {
      if (isSuccess(response)) return { done: parseAnswer(PriceSessionResponse, response.text, facts, redact) };
      if (response.status !== 500) return undefined;
      const failure = readJson(response.text, StatusMessage);
      if (failure === undefined) return undefined;
      const said = cleanText(redact(failure.message), 200);
      const name = checkoutStatusName(failure.status);
      if (failure.status === CheckoutSessionStatus.RateLimited) {
        return {
          retry: new UpstreamRateLimitedError(facts, `The price look-up stayed rate limited (status 0 ${name}${said ? `: ${said}` : ""}); nothing was priced`, {
            hint: "Try again in a minute or two.",
          }),
          reason: "price look-up rate limited (status 0)",
        };
      }
      return {
        fail: new ServerError(facts, `The price session failed (status ${failure.status} ${name}${said ? `: ${said}` : ""})`, failure.status, {
          hint: "Nothing was charged. Check the shipments (each needs valid addresses and a service), then try again later.",
        }),
      };
    },
  };
}

export function finalizeCheckout(ids: number[]): CallSpec<void> {
  return {
    method: "POST",
    path: "/api/v1/checkout",
    json: { shipments: ids },
    // Charges the card: never sent twice by the HTTP layer.
    idempotent: false,
    checkout: true,
    interpret: expectNoContent,
  };
}

export function uploadReport(shipmentId: number, set: ReportSet, body: MultipartBody): CallSpec<void> {
  return {
    method: "POST",
    path: `/api/v1/reports/${shipmentId}/${set}`,
    multipart: body,
    idempotent: false,
    resource: `shipment ${shipmentId}`,
    interpret: expectNoContent,
  };
}

function pageQuery(query: PageQuery = {}): string | undefined {
  const params = new URLSearchParams();
  if (query.page !== undefined) params.set("page", String(query.page));
  if (query.limit !== undefined) params.set("limit", String(query.limit));
  const text = params.toString();
  return text === "" ? undefined : text;
}

/** The body as `schema`, or undefined when it is not JSON of that shape (the generic mapping then decides). */
function readJson<S extends z.ZodType>(text: string, schema: S): z.infer<S> | undefined {
  try {
    const result = schema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

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
    mcp: { none: "add_address finds a stored twin itself; a whole address book is not an assistant's input" },
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
