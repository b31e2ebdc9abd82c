import { describe, expect, it } from "vitest";
import { retryLine, waitBeforeRetry } from "../../../src/checkout/countdown.js";
import { createTestIO } from "../../helpers/test-io.js";
import { fakeClock } from "./fake.js";

describe("the wait before a 409 retry", () => {
  it("without a terminal: one line, one sleep of the whole wait", async () => {
    const io = createTestIO({ tty: false });
    const clock = fakeClock();
    await waitBeforeRetry({ io, clock, signal: new AbortController().signal }, { seconds: 60, attempt: 1, of: 3 });
    expect(io.stderr()).toBe("payment failed temporarily (409): retrying in 60 s (attempt 1 of 3)\n");
    expect(clock.waits).toEqual([60_000]);
  });

  it("on a terminal: redraws each second, then leaves one plain line", async () => {
    const io = createTestIO({ tty: true });
    const clock = fakeClock();
    await waitBeforeRetry({ io, clock, signal: new AbortController().signal }, { seconds: 2, attempt: 2, of: 3 });
    expect(clock.waits).toEqual([1000, 1000]);
    expect(io.stderr()).toBe(
      "\r\x1b[Kpayment failed temporarily (409): retrying in 2 s (attempt 2 of 3)" +
        "\r\x1b[Kpayment failed temporarily (409): retrying in 1 s (attempt 2 of 3)" +
        "\r\x1b[Kpayment failed temporarily (409): retrying now (attempt 2 of 3)\n",
    );
  });

  it("0 seconds: says so and does not sleep", async () => {
    const io = createTestIO({ tty: false });
    const clock = fakeClock();
    await waitBeforeRetry({ io, clock, signal: new AbortController().signal }, { seconds: 0, attempt: 1, of: 1 });
    expect(io.stderr()).toBe(`${retryLine({ seconds: 0, attempt: 1, of: 1 })}\n`);
    expect(clock.waits).toEqual([]);
  });

  it("Ctrl-C ends the wait at once with the signal's reason, and clears the countdown line", async () => {
    const io = createTestIO({ tty: true });
    const controller = new AbortController();
    const reason = new Error("interrupted");
    const clock = fakeClock(() => controller.abort(reason));
    await expect(waitBeforeRetry({ io, clock, signal: controller.signal }, { seconds: 60, attempt: 1, of: 3 })).rejects.toBe(reason);
    expect(clock.waits).toEqual([1000]);
    expect(io.stderr().endsWith("\r\x1b[K")).toBe(true);
  });
});
