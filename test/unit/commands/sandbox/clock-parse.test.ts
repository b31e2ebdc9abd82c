// `sandbox clock`: the command line to options, nothing sent.
import { describe, expect, it } from "vitest";
import { sandboxClockCommand } from "../../../../src/commands/sandbox/clock.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions(sandboxClockCommand, argv);

describe("sandbox clock (parse only)", () => {
  it("alone it only shows the clock", async () => {
    expect(await parse([])).toEqual({ action: "show" });
  });

  it.each([
    ["+25h", 25 * 3_600_000],
    ["25h", 25 * 3_600_000],
    ["30d", 30 * 86_400_000],
    ["-90m", -90 * 60_000],
    ["1d12h", 36 * 3_600_000],
    ["-45s", -45_000],
  ])("%s shifts it (a shift back is an argument, not an option)", async (shift, ms) => {
    expect(await parse([shift])).toEqual({ action: "shift", ms });
  });

  it("--set a moment, ticking from there unless --frozen; --reset", async () => {
    expect(await parse(["--set", "2026-03-01 09:00"])).toEqual({ action: "set", at: { ms: Date.UTC(2026, 2, 1, 9) }, frozen: false });
    expect(await parse(["--set", "2026-03-01", "--frozen"])).toEqual({ action: "set", at: { ms: Date.UTC(2026, 2, 1) }, frozen: true });
    expect(await parse(["--reset"])).toEqual({ action: "reset" });
  });

  it.each([
    [["+25x"], "the shift must be a duration like +25h"],
    [["+1h", "-2h"], "one shift at a time"],
    [["+1h", "--reset"], "give one of a shift (+25h), --set TIME or --reset"],
    [["--set", "2026-03-01", "--reset"], "give one of"],
    [["--frozen"], "--frozen goes with --set TIME"],
    [["--sett", "x"], "unknown option '--sett'"],
    [["--set", "soon"], "--set must be a date or a date and time"],
  ])("%j is refused before anything is sent", async (argv, message) => {
    const err = await parse(argv).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toContain(message);
  });
});
