// A moment for a sandbox verb (--at, --set): a shift is taken from the sandbox's now, and must stay a writable date.
import { describe, expect, it } from "vitest";
import { momentText, sandboxMoment } from "../../../../src/commands/sandbox/sandbox-moment.js";
import { UsageError } from "../../../../src/errors.js";

const sandbox = { clock: async () => ({ now_ms: Date.parse("2026-03-01T12:00:00Z") }) };

describe("momentText", () => {
  it("takes a shift from the sandbox's own now", async () => {
    expect(await momentText(sandboxMoment("-23h", "--at"), sandbox)).toBe("2026-02-28 13:00:00");
    expect(await momentText(sandboxMoment("2026-03-01 09:00", "--at"), sandbox)).toBe("2026-03-01 09:00:00");
  });

  it("refuses a shift that leaves the years 0000 to 9999, as a usage error", async () => {
    // `sandbox status 7 Delivered --at=-104000000d` ended with "Unexpected error: Invalid time value" (exit 1).
    for (const shift of ["-104000000d", "+99999999d", "-3000000d"]) {
      const err = await momentText(sandboxMoment(shift, "--at"), sandbox).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).toMatch(
        /^the shift [+-]\d+d takes the sandbox's clock outside the years 0000 to 9999$/,
      );
    }
  });
});
