// Which URL a pagination link (`links.next`) is followed on. The token goes only to the base URL, and pages are
// numbered (`?page=2&limit=50`), so only the link's path and query are taken, and requested on the base URL. The
// link's scheme, host and port are never used: a service behind a TLS-terminating proxy builds its links from the
// request it sees (`http://api.example.com/...`, without the proxy's port), and a link naming another host must not
// take the token there either. With the endpoint being read given, the path must be that endpoint: a link to any
// other path is refused rather than read as a page of this list.
import { UnexpectedResponseError } from "./api-errors.js";

/**
 * `endpointPath`: the endpoint being read, under the base URL ("/api/v1/shipments"). Its path may come with the base
 * URL's path prefix or without it (a proxy that strips the prefix hides it from the service); the page is read under
 * the prefix. Without `endpointPath`, the link's path is taken as it is.
 */
export function followableLink(link: string, baseUrl: URL, redact: (s: string) => string, endpointPath?: string): URL {
  const facts = { method: "GET", path: "(pagination link)", mayHaveArrived: false };
  let url: URL;
  try {
    url = new URL(link, baseUrl);
  } catch {
    throw new UnexpectedResponseError(facts, `The service's pagination link "${redact(link)}" is not a URL`);
  }
  if (endpointPath === undefined) return new URL(`${url.pathname}${url.search}`, baseUrl.origin);
  const prefix = baseUrl.pathname.replace(/\/+$/, "");
  const expected = `${prefix}${endpointPath}`;
  if (url.pathname !== expected && url.pathname !== endpointPath) {
    throw new UnexpectedResponseError(
      facts,
      `The service's pagination link "${redact(link)}" is not a page of ${expected}, the list being read: shipctl did not follow it`,
      { hint: "shipctl reads only the next pages of the list it asked for; read them with --page N instead." },
    );
  }
  return new URL(`${expected}${url.search}`, baseUrl.origin);
}
