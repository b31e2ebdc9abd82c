// Each endpoint of the contract as a CallSpec: method, path, body, whether it is safe to send again, and how its
// answers read. endpoint-table.ts declares each one with its decisions; the retry loop (call.ts) and the generic error
// mapping (error-map.ts) do the rest.
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
import { cleanText, type Redactor } from "./redact.js";
import type { WireResponse } from "./transport.js";
import { parseAnswer } from "./answer-check.js";
import type { MultipartBody, PageQuery, VerifyOutcome } from "./call-types.js";

const isSuccess = (response: WireResponse) => response.status >= 200 && response.status < 300;

/** 2xx -> the body checked against `schema`, then `pick`ed; other statuses go to the generic mapping. */
export function expectJson<S extends z.ZodType, T>(schema: S, pick: (value: z.infer<S>) => T) {
  return (response: WireResponse, facts: RequestFacts, redact: Redactor): Verdict<T> | undefined =>
    isSuccess(response) ? { done: pick(parseAnswer(schema, response.text, facts, redact)) } : undefined;
}

/** 2xx (201, 204...) -> done; whatever body came with it is not needed. */
function expectNoContent(response: WireResponse): Verdict<void> | undefined {
  return isSuccess(response) ? { done: undefined } : undefined;
}

const identity = <T>(value: T): T => value;
const unwrap = <T>(value: { data: T }): T => value.data;

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

export function createShipments(shipments: Shipment[]): CallSpec<CreateShipmentsResponse> {
  return {
    method: "POST",
    path: "/api/v1/shipments",
    json: { shipments },
    idempotent: false,
    interpret: expectJson(CreateShipmentsResponse, identity),
  };
}

// Addresses and shipments are read, listed and updated alike; `kind` names one in a 404 ("shipment 12").
type Kind = "address" | "shipment";
const collection = (kind: Kind) => (kind === "address" ? "/api/v1/addresses" : "/api/v1/shipments");

/** The whole record is sent: sending it twice leaves the same result. */
const updateOne =
  <B>(kind: Kind) =>
  (id: number, body: B): CallSpec<void> => ({
    method: "PATCH",
    path: `${collection(kind)}/${id}`,
    json: body,
    idempotent: true,
    resource: `${kind} ${id}`,
    interpret: expectNoContent,
  });

const getOne =
  <T>(kind: Kind, schema: z.ZodType<{ data: T }>) =>
  (id: number): CallSpec<T> => ({
    method: "GET",
    path: `${collection(kind)}/${id}`,
    idempotent: true,
    resource: `${kind} ${id}`,
    interpret: expectJson(schema, unwrap),
  });

const listAll =
  <T>(kind: Kind, schema: z.ZodType<PageOf<T>>) =>
  (query?: PageQuery): CallSpec<PageOf<T>> => ({
    method: "GET",
    path: collection(kind),
    query: pageQuery(query),
    idempotent: true,
    interpret: expectJson(schema, identity),
  });

export const updateAddress = updateOne<Address>("address");
export const getAddress = getOne<StoredAddress>("address", Wrapped(StoredAddress));
export const listAddresses = listAll<StoredAddress>("address", Page(StoredAddress));
export const updateShipment = updateOne<Shipment>("shipment");
export const getShipment = getOne<StoredShipment>("shipment", Wrapped(StoredShipment));
export const listShipments = listAll<StoredShipment>("shipment", Page(StoredShipment));

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
        fail: new ServerError(facts, `The price session failed (status ${failure.status} ${name}${said ? `: ${said}` : ""})`, {
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
