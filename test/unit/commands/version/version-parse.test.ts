// `version`: nothing to read but the global --json, and no argument taken.
import { describe, expect, it } from "vitest";
import { versionCommand } from "../../../../src/commands/version/version.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("version (parse only)", () => {
  it("takes no options of its own", async () => {
    expect(await parsedOptions(versionCommand, [])).toEqual({});
  });

  it("refuses an argument (a mistyped flag or topic is not silently ignored)", async () => {
    await expect(parsedOptions(versionCommand, ["--json-ish"])).rejects.toMatchObject({ code: "commander.unknownOption" });
    await expect(parsedOptions(versionCommand, ["extra"])).rejects.toMatchObject({ code: "commander.excessArguments" });
  });
});
