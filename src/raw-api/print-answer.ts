// How `shipctl api` shows an answer on stdout: the status line and headers first with --include (as gh does), then
// the body as the service sent it, indented when it is JSON. Whatever the status: a script reads the service's own
// error body there, and the exit code and message (stderr) say what failed.
import { NotFoundError, type ApiFailure } from "../api/api-errors.js";
import type { RawAnswer } from "../api/client-types.js";
import type { WireResponse } from "../api/transport.js";
import type { IO } from "../output/io.js";

/**
 * Prints the answer (status and headers first with --include); an error status then fails the run with the exit code
 * every command gives it. `compact`: JSON on one line, for a stream of NDJSON.
 */
export function printAnswer(io: IO, answer: RawAnswer, options: { include: boolean; compact?: boolean }): void {
  if (options.include) io.out(statusBlock(answer.response));
  io.out(bodyText(answer.response, options.compact));
  if (answer.failure) throw explained(answer.failure);
}

/** A 404's usual hint blames the base URL; from `api` it more often means a wrong id in the path. */
function explained(failure: ApiFailure): ApiFailure {
  if (!(failure instanceof NotFoundError)) return failure;
  return new NotFoundError(failure, failure.message, failure.resource, {
    hint: "Check the path and any id in it (the service's answer is on stdout); if no path is found, check the base URL.",
  });
}

/** "HTTP/1.1 200 OK", then one "name: value" line per header value, then a blank line. */
export function statusBlock(response: WireResponse): string {
  // undici speaks HTTP/1.1 only (the Agent is not asked for h2).
  const lines = [`HTTP/1.1 ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`];
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
  }
  return `${lines.join("\n")}\n\n`;
}

/**
 * The body indented when it parses as JSON, else exactly as sent; nothing for an empty body (204). `compact`: one
 * line, so an NDJSON stream stays one document per line (a body that is not JSON, an HTML error page, as a string).
 */
export function bodyText(response: WireResponse, compact = false): string {
  const json = parsedJson(response.text);
  if (json === undefined) return compact && response.text.trim() !== "" ? `${JSON.stringify(response.text)}\n` : response.text;
  return `${compact ? JSON.stringify(json.value) : JSON.stringify(json.value, null, 2)}\n`;
}

/** `{ value }` when `text` is JSON; undefined when it is empty or not JSON. */
export function parsedJson(text: string): { value: unknown } | undefined {
  if (text.trim() === "") return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}
