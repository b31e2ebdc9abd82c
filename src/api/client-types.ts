// What commands may ask of the service: one method per endpoint of the contract (derived from api/endpoint-table.ts), the
// next page of a list, and `shipctl api`'s raw request. Implemented by api/client.ts over undici; commands receive it
// through Deps.api(), and unit tests give it a transport of stubs (test/helpers/http-stubs.ts).
import type { PageOf, StoredAddress, StoredShipment } from "../contract/index.js";
import type { ApiFailure } from "./api-errors.js";
import type { CallSpec } from "./call.js";
import type { CallOptions } from "./call-types.js";
import type { ENDPOINTS, EndpointName } from "./endpoint-table.js";

export type { ApiClientOptions, CallOptions, MultipartBody, PageQuery, RetryInfo, VerifyOutcome } from "./call-types.js";
import type { HttpMethod, WireResponse } from "./transport.js";

/** The two paginated lists, and the record each holds. */
export type ListKind = "shipments" | "addresses";
export type ItemOf<K extends ListKind> = K extends "shipments" ? StoredShipment : StoredAddress;

/** A request `shipctl api` builds: any method and path, as long as it stays on the base URL's origin. */
export interface RawRequest {
  method: HttpMethod;
  /** Absolute, on the base URL's origin: the client refuses any other, so the token goes nowhere else. */
  url: URL;
  /** More headers, names in lower case; never Authorization. */
  headers: Record<string, string>;
  /** Sent as the JSON body when defined. */
  json?: unknown;
  /** Safe to send again after it may have arrived (a GET without a method override); else the POST rule applies. */
  idempotent: boolean;
}

/** The service's answer as it came; `failure` is set when its status is an error (what a command would throw). */
export interface RawAnswer {
  response: WireResponse;
  failure?: ApiFailure;
}

/** An endpoint's method: the builder's arguments, then the call's options; the answer the CallSpec reads. */
export type EndpointMethod<B> = B extends (...args: infer A) => CallSpec<infer R> ? (...args: [...A, CallOptions?]) => Promise<R> : never;

/** One method per endpoint of ENDPOINTS (api/endpoint-table.ts), under its name. */
export type EndpointMethods = { [K in EndpointName]: EndpointMethod<(typeof ENDPOINTS)[K]["build"]> };

export interface ApiClient extends EndpointMethods {
  /** GET a `links.next` of a page of `kind` read earlier: its path and query, on the base URL (api/pagination-link.ts). */
  nextPage<K extends ListKind>(kind: K, url: string, options?: CallOptions): Promise<PageOf<ItemOf<K>>>;
  /**
   * Any request under the base URL (`shipctl api`), with the same retry rules, redaction and debug lines. An error
   * status comes back with its answer (RawAnswer.failure) so the caller can show the body; a network failure throws.
   */
  rawRequest(request: RawRequest, options?: CallOptions): Promise<RawAnswer>;
  /**
   * Service time minus local time (ms), from the `Date` header of the latest answer (see api/service-clock.ts);
   * undefined before any answer carried one. Optional so fakes in tests need not model the service's clock.
   */
  serviceClockOffsetMs?(): number | undefined;
  /** Closes kept-alive connections. */
  close(): Promise<void>;
}
