// The config folder records which journal an input file's last run used, so a rerun finds it whatever --results says.
import { describe, expect, it } from "vitest";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { recordedJournalFor, recordJournalFor } from "../../../src/ledger/input-index.js";
import { tempDir } from "../../helpers/cli.js";
import { needs, SYMLINKS } from "../../helpers/system.js";

const SUFFIX = ".shipctl-journal.jsonl";

function setup() {
  const dir = tempDir("shipctl-index-");
  const env = { SHIPCTL_CONFIG_DIR: join(dir, "config") };
  const input = join(dir, "orders.csv");
  writeFileSync(input, "title\n");
  mkdirSync(join(dir, "out"));
  const journal = join(dir, "out", `r.csv${SUFFIX}`);
  writeFileSync(journal, "{}\n");
  return { dir, env, input, journal };
}

describe("journal index", () => {
  it.skipIf(!SYMLINKS)(needs(SYMLINKS, "symlinks", "finds the journal recorded for an input, also through a symlink to it, and per command"), async () => {
    const { dir, env, input, journal } = setup();
    expect(await recordedJournalFor(SUFFIX, input, env)).toBeUndefined();
    await recordJournalFor(SUFFIX, input, journal, env);
    expect(await recordedJournalFor(SUFFIX, input, env)).toBe(journal);
    const link = join(dir, "link.csv");
    symlinkSync(input, link);
    expect(await recordedJournalFor(SUFFIX, link, env)).toBe(journal);
    expect(await recordedJournalFor(".shipctl-update-journal.jsonl", input, env)).toBeUndefined();
  });

  it("says nothing for another input, or once the journal was moved away", async () => {
    const { dir, env, input, journal } = setup();
    await recordJournalFor(SUFFIX, input, journal, env);
    const other = join(dir, "other.csv");
    writeFileSync(other, "title\n");
    expect(await recordedJournalFor(SUFFIX, other, env)).toBeUndefined();
    rmSync(journal);
    expect(await recordedJournalFor(SUFFIX, input, env)).toBeUndefined();
  });

  it("the last run's journal replaces the one recorded before", async () => {
    const { dir, env, input, journal } = setup();
    await recordJournalFor(SUFFIX, input, journal, env);
    const next = join(dir, `orders.csv${SUFFIX}`);
    writeFileSync(next, "{}\n");
    await recordJournalFor(SUFFIX, input, next, env);
    expect(await recordedJournalFor(SUFFIX, input, env)).toBe(next);
  });
});
