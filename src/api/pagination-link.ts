// Which URL a pagination link (`links.next`) is followed on. Links come from the service; the token goes only to the
// base URL's origin (same scheme, host and port), so a link elsewhere is refused rather than followed. One exception:
// a service behind a TLS-terminating proxy often builds its links from the plain-HTTP request it sees, so with an
// https base URL it answers `http://api.example.com/...?page=2`. A link that differs from the https base only by that
// scheme (same host; same port, or both the default port of their scheme) is the same service: it is followed on the
// base URL's origin, over TLS, so the token still never leaves it. Relative links are read against the base URL.
import { UnexpectedResponseError } from "./api-errors.js";

export function followableLink(link: string, baseUrl: URL, redact: (s: string) => string): URL {
  const facts = { method: "GET", path: "(pagination link)", mayHaveArrived: false };
  let url: URL;
  try {
    url = new URL(link, baseUrl);
  } catch {
    throw new UnexpectedResponseError(facts, `The service's pagination link "${redact(link)}" is not a URL`);
  }
  if (url.origin === baseUrl.origin) return url;
  // URL.port is "" for a scheme's default port, so http://host (80) behind https://host (443) compares equal here.
  if (url.protocol === "http:" && baseUrl.protocol === "https:" && url.hostname === baseUrl.hostname && url.port === baseUrl.port) {
    return new URL(`${url.pathname}${url.search}`, baseUrl.origin);
  }
  throw new UnexpectedResponseError(
    facts,
    `The service's pagination link points to ${redact(url.origin)}, not to ${redact(baseUrl.origin)}: shipctl sends the token only to the base URL, so it did not follow it`,
    { hint: "If the service moved, set the new base URL (`shipctl config set base-url URL`)." },
  );
}
