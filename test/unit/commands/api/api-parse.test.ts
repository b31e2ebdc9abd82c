// `shipctl api <method> <path>`: the command line to options, nothing run.
import { describe, expect, it } from "vitest";
import { apiCommand } from "../../../../src/commands/api/api.js";
import type { ApiRequestOptions } from "../../../../src/raw-api/run-api.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions<ApiRequestOptions>(apiCommand, argv);

describe("api (parse only)", () => {
  it("method in any case and path; nothing else by default", async () => {
    expect(await parse(["get", "/api/v1/shipments/7"])).toEqual({
      method: "GET",
      path: "/api/v1/shipments/7",
      fields: [],
      headers: {},
      input: undefined,
      paginate: false,
      slurp: false,
      include: false,
    });
  });

  it("repeatable -F, -f and -H; --input, --paginate, --slurp, --include", async () => {
    const options = await parse([
      "GET", "api/v1/shipments", "-F", "limit=50", "--field", "ids[]=1", "-f", "title=7", "--raw-field", "x=y",
      "-H", "Accept: application/json", "--header", "X-Trace: 1", "--paginate", "--slurp", "--input", "body.json",
    ]);
    expect(options.fields.map((f) => [f.key, f.value, f.typed])).toEqual([["title", "7", false], ["x", "y", false], ["limit", "50", true], ["ids[]", "1", true]]);
    expect(options.headers).toEqual({ accept: "application/json", "x-trace": "1" });
    expect(options).toMatchObject({ paginate: true, slurp: true, include: false, input: "body.json" });
    expect((await parse(["PATCH", "/api/v1/shipments/7", "-i"])).include).toBe(true);
  });

  it("refuses what cannot work, before anything is sent", async () => {
    const refused = async (argv: string[]) => {
      const err = await parse(argv).catch((e: unknown) => e);
      expect(err, argv.join(" ")).toBeInstanceOf(UsageError);
      return (err as Error).message;
    };
    expect(await refused(["HEAD", "/x"])).toMatch(/not a method shipctl api sends/);
    expect(await refused(["POST", "/api/v1/shipments", "--paginate"])).toMatch(/--paginate follows the pages of a GET/);
    expect(await refused(["GET", "/api/v1/shipments", "--slurp"])).toMatch(/add --paginate/);
    expect(await refused(["GET", "/api/v1/shipments", "--paginate", "--slurp", "-i"])).toMatch(/use one of them/);
    expect(await refused(["GET", "/x", "-H", "Authorization: Bearer t"])).toMatch(/authorization cannot be set/);
    expect(await refused(["POST", "/x", "--input", "-", "-F", "a=@-"])).toMatch(/stdin can be read once/);
    expect(await refused(["POST", "/x", "-F", "a"])).toMatch(/needs a value/);
    expect(await refused(["GET", " "])).toMatch(/path is empty/);
  });

  it("needs the method and the path", async () => {
    await expect(parse(["GET"])).rejects.toThrow("missing required argument 'path'");
  });
});
