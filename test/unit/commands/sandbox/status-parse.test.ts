// `sandbox status`: the command line to options, nothing sent.
import { describe, expect, it } from "vitest";
import { sandboxStatusCommand } from "../../../../src/commands/sandbox/status.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions(sandboxStatusCommand, argv);

describe("sandbox status (parse only)", () => {
  it.each([
    [["12", "delivered"], 7],
    [["12", "ARRIVED"], 11],
    [["12", "Drop-Off"], 9],
    [["12", "drop off"], 9],
    [["12", "3"], 3],
  ])("%j: a status by name in any case, or by number", async (argv, status) => {
    expect(await parse(argv)).toEqual({ id: 12, status });
  });

  it("--at a date and time (UTC without a zone), or a shift from the sandbox's now", async () => {
    expect(await parse(["5", "delivered", "--at", "2026-03-01 09:00:00"])).toEqual({ id: 5, status: 7, at: { ms: Date.UTC(2026, 2, 1, 9) } });
    expect(await parse(["5", "arrived", "--at", "2026-03-01T10:00+01:00"])).toEqual({ id: 5, status: 11, at: { ms: Date.UTC(2026, 2, 1, 9) } });
    expect(await parse(["5", "arrived", "--at", "-23h"])).toEqual({ id: 5, status: 11, at: { shiftMs: -23 * 3_600_000 } });
  });

  it.each([
    [["x", "delivered"], "shipment id must be a positive whole number"],
    [["12", "lost"], 'status: unknown status "lost"'],
    [["12", "13"], 'status: unknown status "13"'],
    [["12", "filed", "--at", "2026-03-01"], "--at is allowed only when moving to Delivered or Arrived (got Filed)"],
    [["12", "delivered", "--at", "yesterday"], "--at must be a date or a date and time"],
    [["12", "delivered", "--at", "-3x"], "--at must be a duration like +25h"],
  ])("%j is refused before anything is sent", async (argv, message) => {
    const err = await parse(argv).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toContain(message);
  });
});
