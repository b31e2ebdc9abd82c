// `-H "Name: value"` of `shipctl api`. The headers shipctl itself must decide are refused: Authorization carries the
// profile's token and nothing else; Host, Content-Length, Transfer-Encoding and Connection belong to the transport.
import { UsageError } from "../errors.js";

const TOKEN_CHARS = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;

// Maps, not object literals: a header name is the user's text, and "constructor" or "__proto__" must read as a name.
const REFUSED = new Map([
  ["authorization", "shipctl sends the profile's token; for another one use --profile or SHIPCTL_TOKEN"],
  ["host", "the request goes to the base URL's host"],
  ["content-length", "shipctl sets it from the body"],
  ["transfer-encoding", "shipctl sets it from the body"],
  ["connection", "the connection is shipctl's to manage"],
]);

/** Names in lower case; a later -H of the same name replaces an earlier one. */
export function parseHeaderArgs(args: readonly string[]): Record<string, string> {
  const headers = new Map<string, string>();
  for (const arg of args) {
    const colon = arg.indexOf(":");
    const name = (colon === -1 ? arg : arg.slice(0, colon)).trim().toLowerCase();
    const value = colon === -1 ? "" : arg.slice(colon + 1).trim();
    if (colon === -1 || !TOKEN_CHARS.test(name)) throw new UsageError(`-H "${arg}" is not "Name: value"`);
    // eslint-disable-next-line no-control-regex
    if (/[\r\n\u0000]/.test(value)) throw new UsageError(`-H ${name}: a header value cannot hold a line break`);
    const why = REFUSED.get(name);
    if (why) throw new UsageError(`-H ${name} cannot be set: ${why}`);
    headers.set(name, value);
  }
  return Object.fromEntries(headers);
}
