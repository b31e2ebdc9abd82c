// `shipment create`: the command line to options, nothing run.
import { describe, expect, it } from "vitest";
import { createCommand, type CreateOptions } from "../../../../src/commands/shipment/create.js";
import { UsageError } from "../../../../src/errors.js";
import { SHIPMENT_FIELD_FLAGS } from "../../../../src/input/shipment-fields.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions<CreateOptions>(createCommand, argv);

/** Every field flag with a value of its own, and the input those give. */
const FIELDS = SHIPMENT_FIELD_FLAGS.flatMap((f) => [f.flag, `${f.field} text`]);
const FIELD_INPUT = Object.fromEntries(SHIPMENT_FIELD_FLAGS.map((f) => [f.key, `${f.field} text`]));
const SEND_DEFAULTS = { dryRun: false, concurrency: 4, acceptRecommended: false, verify: true, skipInvalid: false, wait: true, forceNew: false };

describe("shipment create (parse only)", () => {
  it("defaults: items from the flags (none yet: the run says what is missing), sent four requests at a time, verified", async () => {
    expect(await parse([])).toEqual({ mode: "items", input: {}, send: SEND_DEFAULTS });
  });

  it("every field flag, --file and --reference go to the input as typed", async () => {
    expect(await parse(["--file", "shipments.json", ...FIELDS, "--reference", "INV-1"])).toEqual({
      mode: "items",
      input: { file: "shipments.json", ...FIELD_INPUT, reference: "INV-1" },
      send: SEND_DEFAULTS,
    });
  });

  it("the sending flags apply to flags and --file too", async () => {
    const argv = ["--file", "-", "--dry-run", "--skip-invalid", "--no-wait", "--concurrency", "8", "--no-verify", "--accept-recommended"];
    expect(await parse(argv)).toEqual({
      mode: "items",
      input: { file: "-" },
      send: { dryRun: true, concurrency: 8, acceptRecommended: true, verify: false, skipInvalid: true, wait: false, forceNew: false },
    });
  });

  it("--results works with --csv only", async () => {
    const err = await parse(["--title", "A", "--results", "out.csv"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/--results .* works with --csv only/);
  });

  it("a bad --concurrency is a usage error in either mode", async () => {
    await expect(parse(["--title", "A", "--concurrency", "17"])).rejects.toThrow(/from 1 to 16 \(got 17\)/);
    await expect(parse(["--csv", "a.csv", "--concurrency", "1.5"])).rejects.toBeInstanceOf(UsageError);
  });

  it("--csv with every flag of that mode", async () => {
    const argv = ["--csv", "a.csv", "--dry-run", "--results", "r.csv", "--skip-invalid", "--force-new", "--no-wait", "--concurrency", "2", "--no-verify", "--accept-recommended"];
    expect(await parse(argv)).toEqual({
      mode: "csv",
      csv: { csv: "a.csv", dryRun: true, results: "r.csv", skipInvalid: true, forceNew: true, wait: false, concurrency: 2, verify: false, acceptRecommended: true },
    });
    expect(await parse(["--csv", "-"])).toEqual({ mode: "csv", csv: { csv: "-", ...SEND_DEFAULTS, forceNew: false } });
  });

  it("--csv refuses the flags of one shipment, in the order --help lists them", async () => {
    const err = await parse(["--csv", "x.csv", "--reference", "R", "--title", "A", "--value", "3", "--file", "f"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe("--csv reads every field from the file; drop --file, --title, --value, --reference");
  });
});
