// `shipment template`: the command line to options, nothing run.
import { describe, expect, it } from "vitest";
import { templateCommand, type TemplateOptions } from "../../../../src/commands/shipment/template.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions<TemplateOptions>(templateCommand, argv);

describe("shipment template (parse only)", () => {
  it("defaults: the columns of `shipment create --csv`, with an example row", async () => {
    expect(await parse([])).toEqual({ update: false, example: true });
  });

  it("--update and --header-only", async () => {
    expect(await parse(["--update", "--header-only"])).toEqual({ update: true, example: false });
  });

  it("takes no argument", async () => {
    await expect(parse(["extra"])).rejects.toThrow(/too many arguments|unknown command/);
  });
});
