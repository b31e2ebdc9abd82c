// The service's base URL, as typed by a person, checked and put in one canonical form before anything is stored or
// sent. Plain http is refused except to this machine: the bearer token would otherwise cross the network readable.
import { UsageError } from "../errors.js";
import { isLoopbackHost } from "../api/loopback.js";

/** The path every endpoint of the contract lives under; shipctl adds it itself. */
const API_PREFIX = /\/api\/v1$/i;

export interface NormalisedBaseUrl {
  /** scheme://host[:port][/path], no trailing slash, no /api/v1. */
  url: string;
  /** The input ended in /api/v1, which was removed (callers tell the user). */
  strippedApiPrefix: boolean;
}

/**
 * Checks and normalises a base URL. `where` names the input in errors ("--base-url", "SHIPCTL_BASE_URL",
 * "baseUrl of profile \"work\"").
 */
export function normaliseBaseUrl(input: string, where: string): NormalisedBaseUrl {
  const text = input.trim();
  const example = "e.g. https://api.example.com";
  if (text === "") throw new UsageError(`${where} is empty`, { hint: `give the service's URL, ${example}` });
  if (!URL.canParse(text)) {
    const hint = /^[\w.-]+(:\d+)?(\/|$)/.test(text) ? `add the scheme: https://${text}` : `give a full URL, ${example}`;
    throw new UsageError(`${where} "${text}" is not a URL`, { hint });
  }
  const url = new URL(text);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new UsageError(`${where} "${text}" must start with https://`, { hint: example });
  }
  if (url.username || url.password) {
    // Credentials in a URL end up in shell history, logs and error messages.
    throw new UsageError(`${where} must not contain a user name or password`, {
      hint: "give the URL without them; the token is given to `shipctl login`",
    });
  }
  if (url.search || url.hash) {
    throw new UsageError(`${where} "${text}" must not have a query (?...) or fragment (#...)`, { hint: example });
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw new UsageError(`${where} uses plain http to ${url.host}: the token would travel unencrypted`, {
      hint: `use https://${url.host}${url.pathname === "/" ? "" : url.pathname}; plain http is allowed only for localhost, 127.0.0.0/8 and [::1]`,
    });
  }
  let path = url.pathname.replace(/\/+$/, "");
  const strippedApiPrefix = API_PREFIX.test(path);
  if (strippedApiPrefix) path = path.replace(API_PREFIX, "");
  return { url: `${url.origin}${path}`, strippedApiPrefix };
}

/** The note printed when /api/v1 was removed from what the user gave. */
export function strippedPrefixNote(where: string, url: string): string {
  return `Note: ${where} ended in /api/v1; shipctl adds that itself, so the base URL is ${url}\n`;
}

/** Two URLs share scheme, host and port: the unit a saved token belongs to. */
export function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
