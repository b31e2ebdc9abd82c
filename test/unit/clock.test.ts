import { afterEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../src/clock.js";

describe("systemClock.sleep", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("waits the whole of a wait longer than a timer can hold (2^31-1 ms, about 24.8 days)", async () => {
    vi.useFakeTimers();
    // `watch --interval 3000000` (about 35 days): setTimeout alone fires after 1 ms, and watch reads without pause.
    let done = false;
    const slept = systemClock.sleep(3_000_000_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(2 ** 31);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(3_000_000_000 - 2 ** 31 - 1_000);
    await slept;
    expect(done).toBe(true);
  });

  it("ends a long wait at once when the signal aborts, in any of its pieces", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const slept = systemClock.sleep(5_000_000_000, controller.signal);
    await vi.advanceTimersByTimeAsync(2 ** 31 + 10);
    controller.abort(new Error("stop"));
    await expect(slept).rejects.toThrow("stop");
  });
});
