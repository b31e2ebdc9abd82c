// `config tables confirm [--yes]`: whether --yes is needed depends on a terminal, which the run knows (e2e tests).
import { describe, expect, it } from "vitest";
import { tablesConfirmCommand } from "../../../../src/commands/config/tables-confirm.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

describe("config tables confirm (parse only)", () => {
  it("defaults: ask", async () => {
    expect(await parsedOptions(tablesConfirmCommand, [])).toEqual({ yes: false });
  });

  it("--yes and -y", async () => {
    expect(await parsedOptions(tablesConfirmCommand, ["--yes"])).toEqual({ yes: true });
    expect(await parsedOptions(tablesConfirmCommand, ["-y"])).toEqual({ yes: true });
  });
});
