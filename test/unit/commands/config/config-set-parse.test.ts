// `config set <key> <value>`: the key and the value checked on the command line, before the config file is opened.
import { describe, expect, it } from "vitest";
import { configSetCommand } from "../../../../src/commands/config/config-set.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions(configSetCommand, argv);

describe("config set (parse only)", () => {
  it("baseUrl: normalised, and whether a pasted /api/v1 was removed", async () => {
    expect(await parse(["baseUrl", "https://api.example.com/"])).toEqual({ key: "baseUrl", baseUrl: { url: "https://api.example.com", strippedApiPrefix: false } });
    expect(await parse(["base-url", "http://127.0.0.1:8080/api/v1"])).toEqual({ key: "baseUrl", baseUrl: { url: "http://127.0.0.1:8080", strippedApiPrefix: true } });
  });

  it("currentProfile: a profile name", async () => {
    expect(await parse(["currentProfile", "staging"])).toEqual({ key: "currentProfile", profile: "staging" });
  });

  it("lookDays: a whole number of days from 0 to 365, else refused naming the key", async () => {
    expect(await parse(["look-days", " 14 "])).toEqual({ key: "lookDays", days: 14 });
    expect(await parse(["lookDays", "0"])).toEqual({ key: "lookDays", days: 0 });
    await expect(parse(["lookDays", "1.5"])).rejects.toThrow("lookDays 1.5: give a whole number of days from 0 to 365");
    await expect(parse(["lookDays", "400"])).rejects.toThrow("lookDays 400");
  });

  it("ledger: local or a postgres URL, a password refused without being echoed; organization: a plain name", async () => {
    expect(await parse(["ledger", " postgres://shipctl@db.example/shipctl "])).toEqual({ key: "ledger", value: "postgres://shipctl@db.example/shipctl" });
    expect(await parse(["ledger", "local"])).toEqual({ key: "ledger", value: "local" });
    const refused = await parse(["ledger", "postgres://ana:hunter22@db/x"]).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as Error).message).toContain("postgres://ana:[REDACTED]@db/x");
    expect((refused as Error).message).not.toContain("hunter22");
    await expect(parse(["ledger", "mysql://db/x"])).rejects.toThrow("neither `local` nor a postgres:// URL");
    expect(await parse(["organization", "north-gallery"])).toEqual({ key: "organization", value: "north-gallery" });
    await expect(parse(["organization", "North Gallery"])).rejects.toThrow(UsageError);
  });

  it("caFile: the path as given (checked and made absolute when stored); an empty one removes it", async () => {
    expect(await parse(["ca-file", " certs/ca.pem "])).toEqual({ key: "caFile", path: "certs/ca.pem" });
    expect(await parse(["caFile", ""])).toEqual({ key: "caFile", path: "" });
  });

  it.each([
    [["token", "abc"], "the token cannot be set with `config set`"],
    [["profile", "x"], "the profile is chosen per run"],
    [["colour", "red"], 'unknown setting "colour"'],
    [["baseUrl", "ftp://x"], 'baseUrl "ftp://x" must start with https://'],
    [["baseUrl", "http://example.com"], "baseUrl"],
    [["currentProfile", "a b"], 'profile name "a b" may use only'],
  ])("refuses %j (exit 2)", async (argv, message) => {
    const e = await parse(argv).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).message).toContain(message);
  });

  it("needs both the key and the value (commander's own refusal)", async () => {
    await expect(parse(["baseUrl"])).rejects.toMatchObject({ code: "commander.missingArgument" });
  });
});
