// `checkout --from FILE`: which shipments a results file (`shipment create --csv --results FILE`) says exist. Columns
// are found by header name, so a spreadsheet re-save, or columns added before or after ours, change nothing; the
// `shipment_id` of every row whose status says the shipment exists is taken, in file order, each id once. The other
// rows (failed, unknown, not sent) are left out and counted by status, so the run can say what it did not pay and why.
import { UsageError } from "../errors.js";
import { shipmentStatusFromName } from "../contract/index.js";
import type { CsvFile } from "../csv/csv-reader.js";
import { columnLetter, normaliseHeader } from "../csv/headers.js";

/**
 * The status words of a results file (src/batch/outcomes.ts), by whether the row's shipment exists. A file without a
 * status column (a list of shipments, say) has every row's shipment taken; a shipment status name (Draft, Confirmed)
 * also means it exists: checkout itself skips what is no longer a Draft.
 */
const EXISTS = new Set(["created", "updated", "skipped", "matched", "unchanged"]);
// A Map, not an object: a status such as "constructor" must not find a property every object has.
const LEFT_OUT: ReadonlyMap<string, string> = new Map([
  ["failed", "failed"],
  ["unknown", "unknown (the answer was lost: it may not exist)"],
  ["pending", "not sent"],
  ["not_sent", "not sent"],
  // Its shipment holds what the row held before it was edited: paying it would pay for that (shipments/changed-rows.ts).
  ["changed", "edited since it was created (rerun the create with --update-changed, or --force-new, first)"],
  ["unsure", "not created (it could not be matched with certainty)"],
]);

export interface ResultsIds {
  /** Shipment ids in file order, each once. */
  ids: number[];
  /** Rows left out, by why (a LEFT_OUT text), each with its row numbers. */
  leftOut: Map<string, number[]>;
  /** Ids on more than one row (paid once), with their rows. */
  repeated: Map<number, number[]>;
}

export async function idsFromResults(csv: Pick<CsvFile, "file" | "header" | "rows">): Promise<ResultsIds> {
  const names = csv.header.map(normaliseHeader);
  const idAt = names.indexOf("shipment_id");
  const statusAt = names.indexOf("status");
  if (idAt < 0) {
    throw new UsageError(`${csv.file} has no shipment_id column (its columns: ${csv.header.map((h) => JSON.stringify(h)).join(", ")})`, {
      hint: "--from takes the results file of `shipctl shipment create --csv FILE --results RESULTS.csv`, or shipment ids on stdin (--from -).",
    });
  }
  const where = (row: number, at: number) => `${csv.file}, row ${row}, column ${csv.header[at]} (${columnLetter(at)})`;
  const result: ResultsIds = { ids: [], leftOut: new Map(), repeated: new Map() };
  const firstRow = new Map<number, number>();
  for await (const { row, cells } of csv.rows) {
    const idText = (cells[idAt] ?? "").trim();
    let why: string | undefined;
    if (statusAt >= 0) {
      const status = (cells[statusAt] ?? "").trim();
      const word = normaliseHeader(status);
      why = LEFT_OUT.get(word);
      if (why === undefined && !EXISTS.has(word) && shipmentStatusFromName(status) === undefined) {
        throw new UsageError(`${where(row, statusAt)}: status ${JSON.stringify(status)} is not one shipctl writes`, {
          hint: "A results file's status is created, skipped (already created by an earlier run), updated, failed, unknown or pending.",
        });
      }
    } else if (idText === "") why = "without a shipment_id";
    if (why !== undefined) {
      result.leftOut.set(why, [...(result.leftOut.get(why) ?? []), row]);
      continue;
    }
    const id = /^\d+$/.test(idText) ? Number(idText) : NaN;
    if (!Number.isSafeInteger(id) || id < 1) {
      const got = idText === "" ? "is empty" : `${JSON.stringify(idText)} is not a shipment id (a whole number from 1)`;
      throw new UsageError(`${where(row, idAt)}: ${got}`, { hint: "The results file may have been edited: restore the id shipctl wrote, or remove the row." });
    }
    const first = firstRow.get(id);
    if (first === undefined) {
      firstRow.set(id, row);
      result.ids.push(id);
    } else result.repeated.set(id, [...(result.repeated.get(id) ?? [first]), row]);
  }
  return result;
}

/** Plain ids on stdin (`--from -`): separated by whitespace, commas or line breaks; in order, each once. */
export function idsFromText(text: string, label: string): { ids: number[]; repeated: number[] } {
  const ids = new Set<number>();
  const repeated = new Set<number>();
  text.split(/\r\n|\r|\n/).forEach((line, index) => {
    for (const word of line.split(/[\s,]+/)) {
      if (word === "") continue;
      const id = /^\d+$/.test(word) ? Number(word) : NaN;
      if (!Number.isSafeInteger(id) || id < 1) {
        throw new UsageError(`${label}, line ${index + 1}: ${JSON.stringify(word)} is not a shipment id (a whole number from 1)`, {
          hint: "Give shipment ids separated by spaces, commas or line breaks, or a results CSV with a shipment_id column.",
        });
      }
      if (ids.has(id)) repeated.add(id);
      ids.add(id);
    }
  });
  return { ids: [...ids], repeated: [...repeated] };
}
