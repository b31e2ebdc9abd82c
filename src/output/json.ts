// Machine output. With --json, stdout holds exactly one JSON document and nothing else, so `shipctl ... --json | jq`
// always parses; streamed lists use NDJSON (one document per line) so a consumer can start before the end.
// A failure has one shape everywhere: `{"error": {code, exit_code, message, hint, ...}}` (errorJson in errors.ts), alone
// when nothing else was printed, inside the command's document when the run failed after doing work, and the last
// line of NDJSON.
import type { ErrorJson } from "../errors.js";
import type { IO } from "./io.js";

/** Writes `value` as one JSON document (indented for people reading a pipe) followed by a newline. */
export function printJson(io: IO, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** One compact JSON document and its newline: a line of a streamed list (`--ndjson`). */
export function ndjsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/** A command's document with the run's failure in it, as its last key (nothing added when the run succeeded). */
export function withError<T extends object>(doc: T, error: ErrorJson | undefined): T | (T & { error: ErrorJson }) {
  return error ? { ...doc, error } : doc;
}

/**
 * A failure as the run's JSON output: the document `{"error": ...}`, or with `ndjson` the stream's last line. main()
 * prints it when a run that asked for JSON (--json, --format json|ndjson, --ndjson) printed nothing; a command that
 * streams prints it itself when it fails part way, then throws on: main() prints nothing more on a stdout written.
 */
export function printErrorJson(io: IO, error: ErrorJson, options: { ndjson?: boolean } = {}): void {
  if (options.ndjson) io.out(ndjsonLine({ error }));
  else printJson(io, { error });
}
