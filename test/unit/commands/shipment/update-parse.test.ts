// `shipment update [id]`: the command line to options, nothing run.
import { describe, expect, it } from "vitest";
import { updateCommand, type UpdateOptions } from "../../../../src/commands/shipment/update.js";
import { UsageError } from "../../../../src/errors.js";
import { SHIPMENT_FIELD_FLAGS } from "../../../../src/input/shipment-fields.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions<UpdateOptions>(updateCommand, argv);

const FIELDS = SHIPMENT_FIELD_FLAGS.flatMap((f) => [f.flag, `${f.field} text`]);
const FIELD_INPUT = Object.fromEntries(SHIPMENT_FIELD_FLAGS.map((f) => [f.key, `${f.field} text`]));

describe("shipment update (parse only)", () => {
  it("one shipment: the id, and --file and every field flag as typed", async () => {
    expect(await parse(["7", "--file", "shipment.json", ...FIELDS])).toEqual({ mode: "single", id: 7, input: { file: "shipment.json", ...FIELD_INPUT } });
    expect(await parse(["7"])).toEqual({ mode: "single", id: 7, input: {} });
  });

  it("without --csv the id is needed, and checked: usage errors naming it", async () => {
    const missing = await parse(["--title", "x"]).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(UsageError);
    expect((missing as Error).message).toBe("missing required argument 'id' (or give --csv FILE)");
    const bad = await parse(["x", "--title", "y"]).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(UsageError);
    expect((bad as Error).message).toBe('shipment id must be a positive whole number (got "x")');
  });

  it("--csv with every flag of that mode (no --force-new: a full PATCH sent twice is harmless)", async () => {
    const argv = ["--csv", "u.csv", "--dry-run", "--results", "r.csv", "--skip-invalid", "--no-wait", "--concurrency", "3", "--no-verify", "--accept-recommended"];
    expect(await parse(argv)).toEqual({
      mode: "csv",
      csv: { csv: "u.csv", dryRun: true, results: "r.csv", skipInvalid: true, forceNew: false, wait: false, concurrency: 3, verify: false, acceptRecommended: true },
    });
    await expect(parse(["--csv", "u.csv", "--force-new"])).rejects.toThrow(/unknown option '--force-new'/);
  });

  it("--csv refuses an id and the flags of one shipment", async () => {
    const err = await parse(["7", "--csv", "x.csv", "--value", "4", "--title", "A"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe('--csv reads every field from the file; drop "7", --title, --value');
  });

  it("CSV-only flags without --csv are refused, not ignored (a dry run must never store)", async () => {
    await expect(parse(["7", "--file", "s.json", "--dry-run"])).rejects.toThrow("--dry-run works with --csv only");
  });
});
