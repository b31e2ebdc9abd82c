// A results or errors file run as input uses its original's journal (location.ts), wherever that is.
import { describe, expect, it } from "vitest";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { locateJournal } from "../../../src/ledger/location.js";
import { recordJournalFor } from "../../../src/ledger/input-index.js";
import type { CsvSource } from "../../../src/csv/csv-source.js";
import { tempDir } from "../../helpers/cli.js";

const SUFFIX = ".shipctl-journal.jsonl";

function setup() {
  const dir = tempDir("shipctl-original-");
  const env = { SHIPCTL_CONFIG_DIR: join(dir, "config") };
  mkdirSync(join(dir, "fixes"));
  const errors = join(dir, "fixes", "r.errors.csv");
  writeFileSync(errors, "title\n");
  const source: CsvSource = { name: errors, path: errors, stdin: false, open: () => undefined as never, dispose: async () => undefined };
  return { dir, env, source, original: join(dir, "gallery.csv") };
}

describe("locateJournal for a file that names its original", () => {
  it("takes the original's journal beside it, or the one its last run used, whatever --results says", async () => {
    const { dir, env, source, original } = setup();
    writeFileSync(`${original}${SUFFIX}`, "{}\n");
    expect(await locateJournal("shipment-create", source, { cwd: dir, env, original })).toBe(`${original}${SUFFIX}`);

    const elsewhere = join(dir, "out", `r.csv${SUFFIX}`);
    mkdirSync(join(dir, "out"));
    writeFileSync(elsewhere, "{}\n");
    const second = setup();
    await recordJournalFor(SUFFIX, second.original, elsewhere, second.env);
    const located = await locateJournal("shipment-create", second.source, { cwd: second.dir, results: "new.csv", env: second.env, original: second.original });
    expect(located).toBe(elsewhere);
    // Recorded for the errors file too: its next run finds it even if the original is gone.
    expect(await locateJournal("shipment-create", second.source, { cwd: second.dir, env: second.env })).toBe(elsewhere);
  });

  it("without any journal of the original: a new one beside the input, never in the original's (missing) folder", async () => {
    const { dir, env, source } = setup();
    const original = join(dir, "gone", "gallery.csv");
    expect(await locateJournal("shipment-create", source, { cwd: dir, env, original })).toBe(`${source.path}${SUFFIX}`);
    expect(existsSync(join(dir, "gone"))).toBe(false);
  });
});
