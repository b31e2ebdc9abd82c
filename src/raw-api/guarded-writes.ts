// The writes `shipctl api` refuses to send, as api/endpoint-table.ts decides: those the service cannot be asked twice
// about (it has no idempotency key), so a lost answer could mean a second shipment, address, report or charge. Their
// commands record each one in a ledger before sending and read back on a rerun; `api` keeps no ledger, so it names
// the command instead.
// The match is made on what the service could route, not on how the path was written: percent-encoding (decoded
// until it stops changing), case, `.`/`..` segments, doubled or trailing slashes, `;params`, and the base URL's own
// path are all undone. A method override (an X-...-Method... header, `_method` in the query or body) could turn any
// method into a POST, so on these paths it is refused whatever the method.
import type { RawRequest } from "../api/client-types.js";
import { ENDPOINTS, type RawApiDecision } from "../api/endpoint-table.js";
import { UsageError } from "../errors.js";

/** `path` is matched against the normalised path (normalisedPath); `effect` and `command` are the table's words. */
export type GuardedEndpoint = { path: RegExp; endpoint: string } & Exclude<RawApiDecision, "sends">["refuses"];

/**
 * The endpoints the table (api/endpoint-table.ts) says `api` refuses. One with path parameters guards every path below its
 * fixed part (reports/ for POST /api/v1/reports/{id}/{set}): no spelling of the parameters slips through.
 */
const GUARDED_ENDPOINTS: readonly GuardedEndpoint[] = Object.values(ENDPOINTS).flatMap(({ route, rawApi }) => {
  if (rawApi === "sends") return [];
  const path = route.slice(route.indexOf(" ") + 1);
  const fixed = path.split("/{")[0]!.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
  return [{ path: new RegExp(path.includes("{") ? `^${fixed}(/|$)` : `^${fixed}$`), endpoint: route, ...rawApi.refuses }];
});

type Sent = Pick<RawRequest, "method" | "url" | "headers" | "json">;

/** The guarded endpoint `request` could reach as a write, if any. GET without an override is a read (price sessions). */
export function guardedEndpoint(request: Sent, baseUrl: URL): GuardedEndpoint | undefined {
  if (request.method === "GET" && !methodOverridden(request)) return undefined;
  const paths = candidatePaths(request.url.pathname, baseUrl.pathname);
  return GUARDED_ENDPOINTS.find((guarded) => paths.some((path) => guarded.path.test(path)));
}

/** Throws the refusal (exit 2, nothing sent) naming the command that does it safely. */
export function refuseGuardedWrite(request: Sent, baseUrl: URL): void {
  const guarded = guardedEndpoint(request, baseUrl);
  if (!guarded) return;
  const how = methodOverridden(request) ? `${request.method} with a method override` : request.method;
  throw new UsageError(
    `shipctl api does not send ${how} to ${request.url.pathname}: ${guarded.endpoint} ${guarded.effect}, and if its answer were lost, ` +
      "sending it again could do it twice (the service has no idempotency key)",
    { hint: `Use \`${guarded.command}\`: it records each request before sending it, so a rerun reads back instead of repeating it.` },
  );
}

/** Names of headers servers read as "use this method instead" (X-HTTP-Method-Override, X-HTTP-Method, X-Method-Override...). */
const OVERRIDE_HEADER = /method/i;

/**
 * The request asks the server to treat it as another method: a header naming a method, or `_method` anywhere in the
 * query or the body (Laravel reads it from either; checked in the decoded text, so no encoding hides it).
 */
export function methodOverridden(request: Sent): boolean {
  if (Object.keys(request.headers).some((name) => OVERRIDE_HEADER.test(name))) return true;
  const body = request.json === undefined ? "" : JSON.stringify(request.json);
  return /_method/i.test(decodeFully(request.url.search)) || /_method/i.test(decodeFully(body));
}

/** The path as a router would read it, and the same below the base URL's own path when it has one. */
function candidatePaths(pathname: string, basePath: string): string[] {
  const path = normalisedPath(pathname);
  const base = normalisedPath(basePath);
  if (base !== "/" && path.startsWith(`${base}/`)) return [path, path.slice(base.length)];
  return [path];
}

/**
 * `/API/v1//Checkout/`, `/api/v1/shipments/../checkout`, `/api/v1/%63heckout`, `/api/v1/x%2F..%2Fcheckout` all give
 * `/api/v1/checkout`: decoded to a fixed point, lower case, backslashes as slashes, `;params` and empty or `.`
 * segments dropped, `..` applied, no trailing slash.
 */
export function normalisedPath(pathname: string): string {
  const text = decodeFully(pathname).replace(/\\/g, "/").toLowerCase();
  const segments: string[] = [];
  for (const raw of text.split("/")) {
    // eslint-disable-next-line no-control-regex
    const segment = raw.split(";")[0]!.replace(/^[\s\u0000]+|[\s\u0000]+$/g, "");
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

/** Percent-decoding repeated until nothing changes (`%252e` is `%2e` is `.`), byte by byte, never failing. */
function decodeFully(text: string): string {
  let current = text;
  for (let round = 0; round < 10; round++) {
    const next = current.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === current) break;
    current = next;
  }
  return current;
}
