// `demo`: the command line to options, nothing run (its refusal of the global --json is the run's: test/e2e/help).
import { describe, expect, it } from "vitest";
import { demoCommand } from "../../../../src/commands/demo/demo.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("demo (parse only)", () => {
  it("defaults: clean up after itself", async () => {
    expect(await parsedOptions(demoCommand, [])).toEqual({ keep: false });
  });

  it("--keep", async () => {
    expect(await parsedOptions(demoCommand, ["--keep"])).toEqual({ keep: true });
  });

  it("refuses an argument", async () => {
    await expect(parsedOptions(demoCommand, ["now"])).rejects.toMatchObject({ code: "commander.excessArguments" });
  });
});
