// `address add`: the command line to options, nothing run.
import { describe, expect, it } from "vitest";
import { addCommand, type AddOptions } from "../../../../src/commands/address/add.js";
import { UsageError } from "../../../../src/errors.js";
import { ADDRESS_FIELD_FLAGS } from "../../../../src/input/address-fields.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions<AddOptions>(addCommand, argv);

const FIELDS = ADDRESS_FIELD_FLAGS.flatMap((f) => [f.flag, `${f.field} text`]);
const FIELD_INPUT = Object.fromEntries(ADDRESS_FIELD_FLAGS.map((f) => [f.key, `${f.field} text`]));

describe("address add (parse only)", () => {
  it("defaults: one address, verified, a revision only after a yes, stored once, waiting for an earlier run", async () => {
    expect(await parse([])).toEqual({ mode: "single", input: {}, store: { verify: true, acceptRecommended: false }, forceNew: false, wait: true });
  });

  it("--file, every field flag, and the flags of what is stored", async () => {
    expect(await parse(["--file", "gallery.json", ...FIELDS, "--no-verify", "--accept-recommended", "--force-new", "--no-wait"])).toEqual({
      mode: "single",
      input: { file: "gallery.json", ...FIELD_INPUT },
      store: { verify: false, acceptRecommended: true },
      forceNew: true,
      wait: false,
    });
  });

  it("--csv with every flag of that mode", async () => {
    const argv = ["--csv", "a.csv", "--dry-run", "--results", "out.csv", "--skip-invalid", "--force-new", "--no-wait", "--concurrency", "2", "--no-verify", "--accept-recommended"];
    expect(await parse(argv)).toEqual({
      mode: "csv",
      csv: { csv: "a.csv", dryRun: true, results: "out.csv", skipInvalid: true, forceNew: true, wait: false, concurrency: 2, verify: false, acceptRecommended: true },
    });
  });

  it("--csv defaults", async () => {
    expect(await parse(["--csv", "a.csv"])).toEqual({
      mode: "csv",
      csv: { csv: "a.csv", dryRun: false, skipInvalid: false, forceNew: false, wait: true, concurrency: 4, verify: true, acceptRecommended: false },
    });
  });

  it("--csv with an address flag is refused, naming each", async () => {
    const err = await parse(["--csv", "a.csv", "--post-code", "1", "--name", "X"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe("--csv reads every field from the file; drop --name, --post-code");
  });

  it("a bad --results or --concurrency with --csv is a usage error", async () => {
    await expect(parse(["--csv", "a.csv", "--results", " "])).rejects.toThrow("--results needs a file name");
    await expect(parse(["--csv", "a.csv", "--concurrency", "0"])).rejects.toThrow(/from 1 to 16 \(got 0\)/);
  });

  it("CSV-only flags without --csv are refused, not ignored (a dry run must never store)", async () => {
    await expect(parse(["--file", "a.json", "--dry-run", "--results", "r.csv"])).rejects.toThrow("--dry-run, --results work with --csv only");
  });
});
