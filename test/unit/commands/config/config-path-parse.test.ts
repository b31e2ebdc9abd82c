// `config path`: no options, no arguments.
import { describe, expect, it } from "vitest";
import { configPathCommand } from "../../../../src/commands/config/config-path.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("config path (parse only)", () => {
  it("takes nothing of its own", async () => {
    expect(await parsedOptions(configPathCommand, [])).toEqual({});
  });

  it("refuses an argument", async () => {
    await expect(parsedOptions(configPathCommand, ["x"])).rejects.toMatchObject({ code: "commander.excessArguments" });
  });
});
