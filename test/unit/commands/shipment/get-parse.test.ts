// `shipment get <id>`: the command line to options, nothing run.
import { describe, expect, it } from "vitest";
import { getCommand, type GetOptions } from "../../../../src/commands/shipment/get.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions<GetOptions>(getCommand, argv);

describe("shipment get (parse only)", () => {
  it("the id", async () => {
    expect(await parse(["7"])).toEqual({ id: 7 });
  });

  it("a bad id is a usage error naming it, with where to find one", async () => {
    const err = await parse(["7.5"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe('shipment id must be a positive whole number (got "7.5")');
    expect((err as UsageError).hint).toContain("shipctl list shipments");
  });

  it("needs the id", async () => {
    await expect(parse([])).rejects.toThrow("missing required argument 'id'");
  });
});
