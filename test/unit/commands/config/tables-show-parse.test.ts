// `config tables show [table]`: both tables, or one named in any of its spellings.
import { describe, expect, it } from "vitest";
import { tablesShowCommand } from "../../../../src/commands/config/tables-show.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions(tablesShowCommand, argv);

describe("config tables show (parse only)", () => {
  it("defaults to both tables", async () => {
    expect(await parse([])).toEqual({});
  });

  it.each([
    ["countries", "countries"],
    ["Country", "countries"],
    ["services", "services"],
    ["SERVICE", "services"],
  ])("reads %s as %s", async (input, table) => {
    expect(await parse([input])).toEqual({ table });
  });

  it("refuses an unknown table, naming the two (exit 2)", async () => {
    const e = await parse(["currencies"]).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(UsageError);
    expect(e).toMatchObject({ message: 'unknown table "currencies"', hint: "the tables are: countries, services" });
  });
});
