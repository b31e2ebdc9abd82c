// Where `shipctl api METHOD PATH` sends its request: the method as the service spells it, and the path read under the
// base URL. An absolute URL is taken only on the base URL's origin: the token is sent there and nowhere else.
import type { HttpMethod } from "../api/transport.js";
import { UsageError } from "../errors.js";

export const API_METHODS: readonly HttpMethod[] = ["GET", "POST", "PATCH", "PUT", "DELETE"];

/** `get`, `Post`... as the service spells it. */
export function parseHttpMethod(text: string): HttpMethod {
  const method = text.trim().toUpperCase();
  const known = API_METHODS.find((m) => m === method);
  if (!known) throw new UsageError(`"${text}" is not a method shipctl api sends: use ${API_METHODS.join(", ")}`);
  return known;
}

/** Starts with a scheme (`https:`, `http:`...): a URL rather than a path. */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The URL `path` names under `baseUrl`: `/api/v1/shipments` and `api/v1/shipments` alike are read below the base
 * URL's own path, as every command's requests are (api/call.ts). Leading slashes are dropped first, so `//host/x`
 * stays a path on the base URL and never names another host.
 */
export function resolveApiTarget(path: string, baseUrl: URL): URL {
  const text = path.trim();
  if (text === "") throw new UsageError("the path is empty: give one such as /api/v1/shipments");
  if (SCHEME.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new UsageError(`"${text}" is not a URL`);
    }
    if (url.origin !== baseUrl.origin) {
      throw new UsageError(`${url.origin === "null" ? url.protocol : url.origin} is not the base URL's origin (${baseUrl.origin}): shipctl sends the token only there`, {
        hint: "Give a path under the base URL (/api/v1/shipments); for another service, use --profile or --base-url.",
      });
    }
    return url;
  }
  const basePath = baseUrl.pathname.replace(/\/+$/, "");
  const url = new URL(`${baseUrl.origin}${basePath}/${text.replace(/^[/\\]+/, "")}`);
  // The origin is written before the path, so the parser cannot move it; checked all the same.
  if (url.origin !== baseUrl.origin) throw new UsageError(`"${text}" does not name a path on the base URL`);
  return url;
}
