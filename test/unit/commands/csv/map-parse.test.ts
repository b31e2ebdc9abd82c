// `csv map`: the command line to options, nothing read.
import { describe, expect, it } from "vitest";
import { csvMapCommand } from "../../../../src/commands/csv/map.js";
import type { CsvMapRequest } from "../../../../src/batch/column-mapping.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions<CsvMapRequest>(csvMapCommand, argv);

describe("csv map (parse only)", () => {
  it("reads the file and --set or --forget", async () => {
    expect(await parse(["a.csv"])).toEqual({ file: "a.csv", forget: false });
    expect(await parse(["a.csv", "--set", "Artwork=title"])).toEqual({ file: "a.csv", set: "Artwork=title", forget: false });
    await expect(parse(["a.csv", "--set", "A=title", "--forget"])).rejects.toThrow(new UsageError("give --set or --forget, not both"));
  });

  // Blank (an unset variable in a script): it read as the working folder, "Error:  is a folder; csv map takes a CSV file".
  it("refuses a blank file name", async () => {
    await expect(parse([" "])).rejects.toThrow(new UsageError("csv map needs a CSV file name"));
  });
});
