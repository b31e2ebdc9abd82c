import { describe, expect, it } from "vitest";
import { dueCommand, runDue } from "../../../../src/commands/due/due.js";
import { createDeps, DEFAULT_GLOBALS, type BaseDeps } from "../../../../src/deps.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions(dueCommand, argv);

describe("due: the command line", () => {
  it("has documented defaults: the last 180 days read, windows closed in the last 7 days, 8 pages at once", async () => {
    expect(await parse([])).toEqual({
      sinceMs: 7 * 86_400_000,
      createdAfter: { kind: "ago", ms: 180 * 86_400_000 },
      photos: "./photos",
      concurrency: 8,
    });
  });

  it("reads --within, --since, --created-after as a span or a date, --all-history, --ndjson", async () => {
    const o = await parse(["--within", "6h", "--since", "48h", "--created-after", "2026-03-01", "--ndjson", "--photos", "/p"]);
    expect(o).toMatchObject({ withinMs: 6 * 3_600_000, sinceMs: 48 * 3_600_000, format: "ndjson", photos: "/p" });
    expect(o.createdAfter).toEqual({ kind: "at", at: new Date("2026-03-01T00:00:00Z") });
    expect((await parse(["--all-history"])).createdAfter).toEqual({ kind: "all" });
    expect((await parse(["--created-after", "90d"])).createdAfter).toEqual({ kind: "ago", ms: 90 * 86_400_000 });
  });

  it("says in which zone a --created-after date is read, in its help and to an assistant over MCP", async () => {
    // A date is read as UTC (list shipments' --created-after says so): one in Auckland would otherwise assume local.
    const ctx = { depsFor: () => ({}) as never, setExitCode: () => undefined, runShipctl: () => Promise.reject(new Error("unused")) };
    const option = dueCommand(ctx).options.find((o) => o.long === "--created-after");
    expect(option?.description).toContain("UTC unless a zone is given");
    const { due } = await import("../../../../src/mcp/read-tools.js");
    expect(due.input.shape.created_after.description).toContain("UTC unless a zone is given");
  });

  it("--max sets the table's rows (the default, 20, is applied by the run)", async () => {
    expect((await parse(["--max", "5"])).maxRows).toBe(5);
    expect((await parse([])).maxRows).toBeUndefined();
    await expect(parse(["--max", "0"])).rejects.toThrow(/--max must be a whole number from 1/);
  });

  it("refuses what it cannot read, before anything is sent", async () => {
    await expect(parse(["--within", "6"])).rejects.toThrow(/--within must be a duration like 6h/);
    await expect(parse(["--all-history", "--created-after", "90d"])).rejects.toThrow(/cannot be used together/);
    await expect(parse(["--format", "csv"])).rejects.toThrow(/--format must be one of table, json, ndjson/);
    await expect(parse(["--concurrency", "40"])).rejects.toThrow(/--concurrency/);
  });

  it("refuses a --created-after span reaching back beyond 1000 years, pointing to --all-history", async () => {
    // 104000000d ended with "Unexpected error: Invalid time value" (exit 1), 2000000d printed "created_after":
    // "-003449-02-05 04:41", which is no timestamp.
    for (const span of ["104000000d", "2000000d", "365251d"]) {
      const refused = /--created-after reaches back at most 1000 years \(365250d\)/;
      await expect(parse(["--created-after", span])).rejects.toThrow(refused);
    }
    const longest = { kind: "ago", ms: 365_250 * 86_400_000 };
    expect((await parse(["--created-after", "365250d"])).createdAfter).toEqual(longest);
    expect((await parse(["--created-after", "99999d"])).createdAfter).toEqual({ kind: "ago", ms: 99_999 * 86_400_000 });
  });

  it("the global --json is short for --format json: with another format it is refused before anything is read", async () => {
    const deps = createDeps({ io: {}, env: {} } as BaseDeps, { ...DEFAULT_GLOBALS, json: true });
    await expect(runDue(await parse(["--ndjson"]), deps)).rejects.toThrow("--json and --format ndjson cannot be used together");
    await expect(runDue(await parse(["--format", "table"]), deps)).rejects.toThrow("--json and --format table cannot be used together");
    await expect(runDue(await parse(["--max", "5"]), deps)).rejects.toThrow("--max sets the rows of the table; --format json");
  });

  it("--ledger is gone (due reads the report sets of every batch from the organization's ledger): an unknown option", async () => {
    await expect(parse(["--ledger", "a.jsonl"])).rejects.toMatchObject({ code: "commander.unknownOption" });
  });
});
