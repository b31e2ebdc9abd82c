// `checkout --from FILE` and `--from -`: the shipment ids to price and pay, read from a results file, or from stdin
// (plain ids, or a results file piped in). What is left out, and why, is said on stderr; a source that leaves
// nothing to pay is refused (exit 2) before any request, naming the file and what its rows hold.
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { UsageError } from "../errors.js";
import type { Deps } from "../deps.js";
import { openCsv } from "../csv/csv-reader.js";
import { openSource } from "../csv/csv-source.js";
import { decodeCsvBytes } from "../csv/encoding.js";
import { readChecked } from "../fs/input-guard.js";
import { idsFromResults, idsFromText, type ResultsIds } from "./ids-from-results.js";
import { firstFew } from "./present.js";

/** `signal` (Ctrl-C) ends a read of stdin a person is typing at a terminal, instead of waiting for Ctrl-D. */
type FromDeps = Pick<Deps, "io" | "cwd"> & { signal?: AbortSignal };

export async function readIdsFrom(from: string, deps: FromDeps): Promise<number[]> {
  const note = (line: string) => deps.io.err(`${line}\n`);
  if (from === "-") return readStdinIds(deps.io, note, deps.signal);
  const source = await openSource(from, deps.cwd, deps.io.stdin, "checkout --from");
  const csv = await openCsv(source.open(), source.name);
  return reported(await idsFromResults(csv), source.name, note);
}

async function readStdinIds(io: Deps["io"], note: (line: string) => void, signal?: AbortSignal): Promise<number[]> {
  if (io.stdinIsTTY) note("Reading shipment ids or a results CSV from stdin (finish with Ctrl-D)...");
  const bytes = await readChecked(io.stdin, "stdin", { firstLine: false, signal });
  const text = (await buffer(decodeCsvBytes(Readable.from([bytes]), "stdin"))).toString("utf8");
  if (text.trim() === "") {
    throw new UsageError("stdin is empty: --from - expects shipment ids or a results CSV", {
      hint: "Example: shipctl shipment create --csv orders.csv --results r.csv, then shipctl checkout --from r.csv",
    });
  }
  // A results CSV starts with a header row naming shipment_id (in any spelling a spreadsheet keeps); anything else is
  // read as ids, so a stray word is refused as "not a shipment id" rather than as a CSV missing its column.
  const firstLine = text.split(/\r\n|\r|\n/).find((line) => line.trim() !== "") ?? "";
  if (/shipment[\s_-]*id/i.test(firstLine)) return reported(await idsFromResults(await openCsv(Readable.from([bytes]), "stdin")), "stdin", note);
  const { ids, repeated } = idsFromText(text, "stdin");
  // Only separators (",", an empty variable joined with commas) name no shipment: not "all 0 are already paid".
  if (ids.length === 0) {
    throw new UsageError("stdin holds separators but no shipment id: --from - expects ids or a results CSV", {
      hint: "Give shipment ids separated by spaces, commas or line breaks, or a results CSV with a shipment_id column.",
    });
  }
  if (repeated.length > 0) note(`stdin: ${firstFew(repeated.map(String))} ${repeated.length === 1 ? "is" : "are"} listed more than once: taken once`);
  return ids;
}

/** Says on stderr what was left out and what was repeated; refuses a source that leaves nothing. */
function reported(found: ResultsIds, file: string, note: (line: string) => void): number[] {
  const leftOut = [...found.leftOut].map(([why, rows]) => `${rows.length} ${why} (${rowsText(rows)})`);
  const leftCount = [...found.leftOut.values()].reduce((n, rows) => n + rows.length, 0);
  if (found.ids.length === 0) {
    throw new UsageError(`${file}: no row has a created shipment${leftCount > 0 ? `: ${leftOut.join(", ")}` : " (it has no data rows)"}`, {
      hint:
        "checkout --from takes the shipment_id of rows whose status is created (or skipped: created by an earlier run). " +
        "Fix the rows in the errors file and run `shipctl shipment create --csv` again first.",
    });
  }
  if (leftCount > 0) note(`${file}: left out ${leftCount} row${leftCount === 1 ? "" : "s"}: ${leftOut.join(", ")}`);
  for (const [id, rows] of found.repeated) note(`${file}: shipment ${id} is on ${rowsText(rows)}: taken once`);
  return found.ids;
}

function rowsText(rows: readonly number[]): string {
  return `row${rows.length === 1 ? "" : "s"} ${firstFew(rows.map(String))}`;
}
