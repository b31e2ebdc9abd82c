// `sandbox payment`: the command line to options, nothing sent.
import { describe, expect, it } from "vitest";
import { sandboxPaymentCommand } from "../../../../src/commands/sandbox/payment.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions(sandboxPaymentCommand, argv);

describe("sandbox payment (parse only)", () => {
  it("alone it only shows the payment method; a state sets it, in any case", async () => {
    expect(await parse([])).toEqual({ action: "show" });
    expect(await parse(["valid"])).toEqual({ action: "set", state: "valid" });
    expect(await parse(["Declining"])).toEqual({ action: "set", state: "declining" });
    expect(await parse(["NONE"])).toEqual({ action: "set", state: "none" });
    expect(await parse(["failing", "--count", "3"])).toEqual({ action: "set", state: "failing", count: 3 });
  });

  it.each([
    [["broke"], 'unknown payment state "broke": use one of valid, none, declining, failing'],
    [["valid", "--count", "2"], "--count goes with failing"],
    [["--count", "2"], "--count goes with failing"],
    [["failing", "--count", "0"], "--count must be a whole number from 1"],
  ])("%j is refused before anything is sent", async (argv, message) => {
    const err = await parse(argv).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toContain(message);
  });
});
