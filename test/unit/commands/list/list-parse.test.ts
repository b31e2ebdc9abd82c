// `list shipments|addresses`: the command line to options, nothing run.
import { describe, expect, it } from "vitest";
import { listCommand } from "../../../../src/commands/list/list-kind.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("list (parse only)", () => {
  it("defaults: page 1, the service's page size, one page, a table", async () => {
    expect(await parsedOptions((ctx, run) => listCommand("shipments", ctx, run), [])).toEqual({ kind: "shipments", page: 1, all: false, ndjson: false });
  });

  it("--page, --limit, --all and --ndjson", async () => {
    const options = await parsedOptions((ctx, run) => listCommand("addresses", ctx, run), ["--page", "3", "--limit", "50", "--all", "--ndjson"]);
    expect(options).toEqual({ kind: "addresses", page: 3, limit: 50, all: true, ndjson: true });
  });

  it("a --limit outside the contract's bounds is a usage error before anything runs", async () => {
    await expect(parsedOptions((ctx, run) => listCommand("shipments", ctx, run), ["--limit", "51"])).rejects.toBeInstanceOf(UsageError);
  });
});
