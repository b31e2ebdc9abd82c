// `config get <key>`: the key in any spelling, or a usage error naming the settings.
import { describe, expect, it } from "vitest";
import { configGetCommand } from "../../../../src/commands/config/config-get.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions(configGetCommand, argv);

describe("config get (parse only)", () => {
  it.each([
    ["baseUrl", "baseUrl"],
    ["base-url", "baseUrl"],
    ["BASE_URL", "baseUrl"],
    ["token", "token"],
    ["profile", "profile"],
    ["current-profile", "currentProfile"],
    ["ca-file", "caFile"],
  ])("reads %s as %s", async (input, key) => {
    expect(await parse([input])).toEqual({ key });
  });

  it("refuses an unknown setting, listing those there are (exit 2)", async () => {
    const e = await parse(["colour"]).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(UsageError);
    expect(e).toMatchObject({ message: 'unknown setting "colour"', hint: "settings: baseUrl, token (masked), profile, currentProfile, stripLocation, caFile, lookDays, ledger (password hidden), organization" });
  });

  it("needs the key (commander's own refusal)", async () => {
    await expect(parse([])).rejects.toMatchObject({ code: "commander.missingArgument" });
  });
});
