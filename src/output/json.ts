// Machine output. With --json, stdout holds exactly one JSON document and nothing else, so `shipctl ... --json | jq`
// always parses; streamed lists use NDJSON (one document per line) so a consumer can start before the end.
import type { IO } from "./io.js";

/** Writes `value` as one JSON document (indented for people reading a pipe) followed by a newline. */
export function printJson(io: IO, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** One compact JSON document per line, for streamed lists (`--ndjson`). */
export function printNdjson(io: IO, values: Iterable<unknown>): void {
  for (const value of values) io.out(ndjsonLine(value));
}

export function ndjsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}
