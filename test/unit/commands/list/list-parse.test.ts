// `list shipments|addresses`: the command line to options, nothing run.
import { describe, expect, it } from "vitest";
import { listCommand, parseList } from "../../../../src/commands/list/list-kind.js";
import type { ListOptions } from "../../../../src/commands/list/list-records.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("list (parse only)", () => {
  it("defaults: page 1, the service's page size, one page, a table", async () => {
    expect(await parsedOptions((ctx, run) => listCommand("shipments", ctx, run), [])).toEqual({ kind: "shipments", page: 1, all: false, delimiter: ",", filter: {} });
  });

  it("--page, --limit, --all and --ndjson", async () => {
    const options = await parsedOptions((ctx, run) => listCommand("addresses", ctx, run), ["--page", "3", "--limit", "50", "--all", "--ndjson"]);
    expect(options).toEqual({ kind: "addresses", page: 3, limit: 50, all: true, format: "ndjson", delimiter: ",", filter: {} });
  });

  const shipments = (argv: string[]) => parsedOptions<ListOptions>((ctx, run) => listCommand("shipments", ctx, run), argv);

  it("--status takes names in any case and numbers, several at once; a filter reads every page", async () => {
    const options = await shipments(["--status", "draft", "CONFIRMED", "7", "--status", "drop-off,arrived"]);
    expect([...options.filter.statuses!].sort((a, b) => a - b)).toEqual([1, 2, 7, 9, 11]);
    expect(options.all).toBe(true);
  });

  it("an unknown status is a usage error naming the valid ones", async () => {
    for (const bad of ["Drafted", "13", "0"]) {
      const e = await shipments(["--status", bad]).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).message).toContain(`unknown status "${bad}"`);
      expect((e as UsageError).hint).toContain("1 Draft, 2 Confirmed");
      expect((e as UsageError).hint).toContain("12 Completed");
    }
  });

  it("--created-after and --created-before: a date is the start of its UTC day; a zone is honoured", async () => {
    const o = await shipments(["--created-after", "2026-03-01", "--created-before", "2026-03-02T14:30+01:00"]);
    expect(o.filter.createdAfter!.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(o.filter.createdBefore!.toISOString()).toBe("2026-03-02T13:30:00.000Z");
    expect((await shipments(["--created-after", "2026-03-01 08:15"])).filter.createdAfter!.toISOString()).toBe("2026-03-01T08:15:00.000Z");
    expect((await shipments(["--created-after", "2026-03-01T08:15:09Z"])).filter.createdAfter!.toISOString()).toBe("2026-03-01T08:15:09.000Z");
    for (const bad of [["--created-after", "yesterday"], ["--created-before", "2026-02-31"], ["--created-after", "2026-03-02", "--created-before", "2026-03-01"]]) {
      await expect(shipments(bad)).rejects.toBeInstanceOf(UsageError);
    }
  });

  it("--title, --max, --format and --delimiter", async () => {
    const o = await shipments(["--title", " Blue ", "--max", "30", "--format", "CSV", "--delimiter", ";"]);
    expect(o).toMatchObject({ filter: { title: "blue" }, max: 30, all: true, format: "csv", delimiter: ";" });
    for (const bad of [["--max", "0"], ["--max", "many"], ["--format", "xml"], ["--delimiter", ";"], ["--format", "csv", "--delimiter", "|"], ["--format", "json", "--ndjson"], ["--title", " "]]) {
      await expect(shipments(bad), bad.join(" ")).rejects.toBeInstanceOf(UsageError);
    }
  });

  it("--fields with --format csv: the listing's columns, in order, once each; with JSON they are the output's to keep", async () => {
    expect((await shipments(["--format", "csv", "--fields", "title, id,title"])).fields).toEqual(["title", "id"]);
    expect(parseList("shipments", { ndjson: true, fields: "id" })).not.toHaveProperty("fields");
  });

  it("addresses have no shipment filters", async () => {
    await expect(parsedOptions((ctx, run) => listCommand("addresses", ctx, run), ["--status", "draft"])).rejects.toThrow();
  });

  it("a --limit outside the contract's bounds is a usage error before anything runs", async () => {
    await expect(parsedOptions((ctx, run) => listCommand("shipments", ctx, run), ["--limit", "51"])).rejects.toBeInstanceOf(UsageError);
  });
});
