// --results FILE.csv: the input rows as they were, plus shipment_id (or address_id), status, error and note (what was
// read differently in the row), and FILE.errors.csv with only the failed rows, ready to fix and run again. The input
// is read once more (rather than kept in memory) and joined with the outcomes by row number. Written atomically: a
// crash never leaves half a file.
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { once } from "node:events";
import { basename, dirname, extname, join, resolve } from "node:path";
import { normaliseHeader } from "./headers.js";
import { openCsv } from "./csv-reader.js";
import { BULK_CHUNK_BYTES, type CsvSource } from "./csv-source.js";
import { csvLine } from "./formula-cells.js";
import type { Outcomes } from "../batch/outcomes.js";
import { CliError } from "../errors.js";

export function errorsPathFor(resultsPath: string): string {
  const ext = extname(resultsPath);
  const stem = ext.toLowerCase() === ".csv" ? resultsPath.slice(0, -ext.length) : resultsPath;
  return `${stem}.errors.csv`;
}

class CsvWriter {
  private readonly tmp: string;
  private readonly stream;
  /** A write error, kept until the next line or the commit says it (an 'error' event nobody hears ends the process). */
  private failure: Error | undefined;
  constructor(readonly path: string) {
    this.tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
    this.stream = createWriteStream(this.tmp, { mode: 0o644 });
    this.stream.on("error", (e) => (this.failure ??= e));
  }
  async line(text: string): Promise<void> {
    if (this.failure) throw this.problem();
    if (!this.stream.write(text)) await once(this.stream, "drain").catch(() => undefined);
    if (this.failure) throw this.problem();
  }
  async commit(): Promise<void> {
    await new Promise<void>((res, rej) => this.stream.end((e?: Error | null) => (e ? rej(this.problem(e)) : res())));
    if (this.failure) throw this.problem();
    await rename(this.tmp, this.path);
  }
  private problem(e: Error | undefined = this.failure): CliError {
    return new CliError(`could not write ${this.path}: ${e?.message ?? "write failed"}`, { hint: "Check that its folder exists and can be written; what was sent is in the journal." });
  }
  async abandon(): Promise<void> {
    this.stream.destroy();
    await rm(this.tmp, { force: true });
  }
}

export interface ResultsFiles {
  results: string;
  errors: string;
}

/** Writes both files; `idColumn` is "shipment_id" or "address_id"; `noteOf` gives a row's notes (value-notes.ts). */
export async function writeResultsFiles(
  source: CsvSource,
  outcomes: Outcomes,
  resultsArg: string,
  cwd: string,
  idColumn: string,
  noteOf: (row: number) => string = () => "",
): Promise<ResultsFiles> {
  const resultsPath = resolve(cwd, resultsArg);
  const errorsPath = errorsPathFor(resultsPath);
  const csv = await openCsv(source.open(BULK_CHUNK_BYTES), source.name);
  const results = new CsvWriter(resultsPath);
  const errors = new CsvWriter(errorsPath);
  try {
    // Columns that a previous results file already had are replaced, so a results file can be run again.
    const added = [idColumn, "status", "error", "note"];
    const keep = csv.header.map((h, i) => [h, i] as const).filter(([h]) => !added.includes(normaliseHeader(h)) && normaliseHeader(h) !== "verdict");
    const width = keep.length;
    // A UTF-8 byte-order mark, so Excel opens accents correctly (shipctl reads it back).
    await results.line(`\ufeff${csvLine([...keep.map(([h]) => h), ...added])}`);
    await errors.line(`\ufeff${csvLine([...keep.map(([h]) => h), "error"])}`);
    for await (const record of csv.rows) {
      const cells = keep.map(([, i]) => record.cells[i] ?? "");
      while (cells.length < width) cells.push("");
      const o = outcomes.get(record.row);
      await results.line(csvLine([...cells, o?.id ?? "", o?.status ?? "pending", o?.error ?? "", noteOf(record.row)]));
      if (o?.status === "failed") await errors.line(csvLine([...cells, o.error ?? ""]));
    }
    await results.commit();
    await errors.commit();
  } catch (e) {
    await results.abandon();
    await errors.abandon();
    throw e;
  }
  return { results: resultsPath, errors: errorsPath };
}
