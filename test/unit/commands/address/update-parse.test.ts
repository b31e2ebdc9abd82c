// `address update <id>` and `address update --csv FILE`: the command line to options, nothing run.
import { describe, expect, it } from "vitest";
import { updateCommand, type UpdateOptions } from "../../../../src/commands/address/update.js";
import { UsageError } from "../../../../src/errors.js";
import { ADDRESS_FIELD_FLAGS } from "../../../../src/input/address-fields.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions<UpdateOptions>(updateCommand, argv);

const FIELDS = ADDRESS_FIELD_FLAGS.flatMap((f) => [f.flag, `${f.field} text`]);
const FIELD_INPUT = Object.fromEntries(ADDRESS_FIELD_FLAGS.map((f) => [f.key, `${f.field} text`]));

describe("address update (parse only)", () => {
  it("defaults: the id, the input as given, verified, a revision only after a yes", async () => {
    expect(await parse(["12", "--file", "a.json"])).toEqual({ mode: "single", id: 12, input: { file: "a.json" }, store: { verify: true, acceptRecommended: false } });
  });

  it("every field flag and the flags of what is stored", async () => {
    expect(await parse(["12", ...FIELDS, "--no-verify", "--accept-recommended"])).toEqual({
      mode: "single",
      id: 12,
      input: FIELD_INPUT,
      store: { verify: false, acceptRecommended: true },
    });
  });

  it("checks the id before anything else: a usage error naming it", async () => {
    const err = await parse(["twelve", "--file", "a.json"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe('address id must be a positive whole number (got "twelve")');
    await expect(parse(["0"])).rejects.toBeInstanceOf(UsageError);
  });

  it("needs the id without --csv", async () => {
    await expect(parse(["--file", "a.json"])).rejects.toThrow("missing required argument 'id'");
  });

  it("with --csv reads every field from the file: an id or a field flag beside it is refused", async () => {
    const csv = await parse(["--csv", "a.csv", "--results", "r.csv", "--no-verify"]);
    expect(csv).toMatchObject({ mode: "csv", csv: { csv: "a.csv", results: "r.csv", verify: false } });
    await expect(parse(["12", "--csv", "a.csv"])).rejects.toThrow(/--csv reads every field from the file; drop "12"/);
    await expect(parse(["--csv", "a.csv", "--name", "X"])).rejects.toThrow(/drop --name/);
    await expect(parse(["12", "--file", "a.json", "--dry-run"])).rejects.toThrow("--dry-run works with --csv only");
  });
});
