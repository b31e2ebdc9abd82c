// `address get <id>`: the command line to options, nothing run.
import { describe, expect, it } from "vitest";
import { getCommand, type GetOptions } from "../../../../src/commands/address/get.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions<GetOptions>(getCommand, argv);

describe("address get (parse only)", () => {
  it("the id", async () => {
    expect(await parse(["12"])).toEqual({ id: 12 });
    expect(await parse([" 7 "])).toEqual({ id: 7 });
  });

  it("a bad id is a usage error naming it, with where to find one", async () => {
    const err = await parse(["12a"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe('address id must be a positive whole number (got "12a")');
    expect((err as UsageError).hint).toContain("shipctl list addresses");
    await expect(parse(["0"])).rejects.toBeInstanceOf(UsageError);
  });

  it("needs the id, and takes no flags of its own", async () => {
    await expect(parse([])).rejects.toThrow("missing required argument 'id'");
    await expect(parse(["12", "--file", "a.json"])).rejects.toThrow(/unknown option '--file'/);
  });
});
