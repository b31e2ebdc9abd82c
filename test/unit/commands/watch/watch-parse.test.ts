// `shipctl watch` command lines and the options they give, without running anything.
import { describe, expect, it } from "vitest";
import { parsedOptions } from "../../../helpers/parse-verb.js";
import { watchCommand, runWatch } from "../../../../src/commands/watch/watch.js";
import { testDeps } from "../../../helpers/deps.js";

const parse = (argv: string[]) => parsedOptions(watchCommand, argv);

describe("watch parse", () => {
  it("defaults: every shipment, 30 s, backing off to 300 s", async () => {
    expect(await parse([])).toEqual({ ids: "all", intervalMs: 30_000, maxIntervalMs: 300_000, ndjson: false });
  });

  it("ids as words or comma-separated, each once", async () => {
    expect((await parse(["1201", "1202,1203", "1201"])).ids).toEqual([1201, 1202, 1203]);
  });

  it("refuses an id that is not a number", async () => {
    await expect(parse(["12a"])).rejects.toMatchObject({ exitCode: 2 });
  });

  // An id given blank (an unset variable in a script) watched every shipment, --exec running for each change.
  it("refuses ids given but all blank, rather than watching every shipment", async () => {
    await expect(parse([""])).rejects.toThrow("the shipment ids given are blank");
    await expect(parse([" ", ","])).rejects.toMatchObject({ exitCode: 2 });
  });

  it("--interval has a floor of 1 s and takes decimals; --max-interval is never below it", async () => {
    expect(await parse(["--interval", "1.5", "--max-interval", "2"])).toMatchObject({ intervalMs: 1500, maxIntervalMs: 2000 });
    expect(await parse(["--interval", "600"])).toMatchObject({ intervalMs: 600_000, maxIntervalMs: 600_000 });
    await expect(parse(["--interval", "0.2"])).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining("from 1") });
    await expect(parse(["--interval", "soon"])).rejects.toMatchObject({ exitCode: 2 });
    await expect(parse(["--interval", "10", "--max-interval", "5"])).rejects.toMatchObject({ exitCode: 2 });
  });

  it("--until takes a name in any case or a number", async () => {
    expect((await parse(["--until", "arrived"])).until).toBe(11);
    expect((await parse(["--until", "drop off"])).until).toBe(9);
    expect((await parse(["--until", "12"])).until).toBe(12);
    await expect(parse(["--until", "13"])).rejects.toMatchObject({ exitCode: 2, hint: expect.stringContaining("Completed (12)") });
    await expect(parse(["--until", "gone"])).rejects.toMatchObject({ exitCode: 2 });
  });

  it("--exec and --ndjson", async () => {
    expect(await parse(["--exec", "cat >> log", "--ndjson"])).toMatchObject({ exec: "cat >> log", ndjson: true });
    await expect(parse(["--exec", " "])).rejects.toMatchObject({ exitCode: 2 });
  });

  it("--json is refused: a watch is a stream (--ndjson)", async () => {
    const { deps, http } = testDeps({ json: true });
    await expect(runWatch(await parse([]), deps)).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining("--ndjson") });
    expect(http.requests).toEqual([]);
  });
});
