// `address verify`: the command line to options, nothing run.
import { describe, expect, it } from "vitest";
import { verifyCommand, type VerifyOptions } from "../../../../src/commands/address/verify.js";
import { UsageError } from "../../../../src/errors.js";
import { ADDRESS_FIELD_FLAGS } from "../../../../src/input/address-fields.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions<VerifyOptions>(verifyCommand, argv);

/** Every field flag with a value of its own, and the input those give. */
const FIELDS = ADDRESS_FIELD_FLAGS.flatMap((f) => [f.flag, `${f.field} text`]);
const FIELD_INPUT = Object.fromEntries(ADDRESS_FIELD_FLAGS.map((f) => [f.key, `${f.field} text`]));

describe("address verify (parse only)", () => {
  it("defaults: one address, from nothing yet (the run says what is missing)", async () => {
    expect(await parse([])).toEqual({ mode: "single", input: {} });
  });

  it("--file and every field flag go to the input as typed", async () => {
    expect(await parse(["--file", "gallery.json", ...FIELDS])).toEqual({ mode: "single", input: { file: "gallery.json", ...FIELD_INPUT } });
    expect(await parse(["--file", "-", "--post-code", "98102"])).toEqual({ mode: "single", input: { file: "-", postCode: "98102" } });
  });

  it("--csv: every row of the file, always verified, with its concurrency", async () => {
    expect(await parse(["--csv", "addresses.csv", "--concurrency", "8"])).toEqual({
      mode: "csv",
      csv: { csv: "addresses.csv", concurrency: 8, dryRun: false, verify: true, acceptRecommended: false, skipInvalid: false, forceNew: false, wait: true },
    });
    expect(await parse(["--csv", "-"])).toMatchObject({ mode: "csv", csv: { csv: "-", concurrency: 4 } });
  });

  it("--csv with an address flag is refused, naming the flags in the order --help lists them", async () => {
    const err = await parse(["--csv", "a.csv", "--country", "US", "--line-1", "1 Main"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe("--csv reads every field from the file; drop --line-1, --country");
    await expect(parse(["--csv", "a.csv", "--file", "a.json"])).rejects.toThrow("drop --file");
  });

  it("a bad --csv or --concurrency is a usage error", async () => {
    await expect(parse(["--csv", ""])).rejects.toThrow("--csv needs a file");
    await expect(parse(["--csv", "a.csv", "--concurrency", "17"])).rejects.toThrow(/--concurrency must be a whole number from 1 to 16/);
    await expect(parse(["--csv", "a.csv", "--concurrency", "two"])).rejects.toBeInstanceOf(UsageError);
  });

  it("has no storing flags", async () => {
    await expect(parse(["--no-verify"])).rejects.toThrow(/unknown option '--no-verify'/);
    await expect(parse(["--dry-run"])).rejects.toThrow(/unknown option '--dry-run'/);
  });
});
