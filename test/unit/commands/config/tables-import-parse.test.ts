// `config tables import <table> <file>`: the table checked, the file only named (it is read when the command runs).
import { describe, expect, it } from "vitest";
import { tablesImportCommand } from "../../../../src/commands/config/tables-import.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions(tablesImportCommand, argv);

describe("config tables import (parse only)", () => {
  it("a table and a file, or - for stdin; the file is not opened", async () => {
    expect(await parse(["countries", "no/such/file.csv"])).toEqual({ table: "countries", file: "no/such/file.csv" });
    expect(await parse(["service", "-"])).toEqual({ table: "services", file: "-" });
  });

  it("refuses an unknown table (exit 2)", async () => {
    await expect(parse(["currencies", "c.csv"])).rejects.toBeInstanceOf(UsageError);
  });

  it("refuses a blank file name (an unset variable), saying it is missing", async () => {
    const blank = "config tables import needs a CSV file name, or - for stdin";
    await expect(parse(["countries", ""])).rejects.toThrow(blank);
    await expect(parse(["services", "  "])).rejects.toBeInstanceOf(UsageError);
  });

  it("needs the file (commander's own refusal)", async () => {
    await expect(parse(["countries"])).rejects.toMatchObject({ code: "commander.missingArgument" });
  });
});
