// The one concurrency pool: never more than its limit in flight, results in input order, the first failure stops
// new starts and is rethrown after the rest end, and a caller can stop new starts (Ctrl-C) while the rest finish.
import { describe, expect, it } from "vitest";
import { mapLimit } from "../../../src/batch/pool.js";

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe("mapLimit", () => {
  it("keeps at most `limit` in flight and the results in input order", async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3, 1, 2], 3, async (n, i) => {
      most = Math.max(most, ++inFlight);
      for (let t = 0; t < n; t++) await tick();
      inFlight--;
      return `${i}:${n}`;
    });
    expect(out).toEqual(["0:5", "1:1", "2:4", "3:2", "4:3", "5:1", "6:2"]);
    expect(most).toBe(3);
  });

  it("starts nothing after a failure, lets those in flight end, then rethrows the first error", async () => {
    const started: number[] = [];
    const ended: number[] = [];
    const run = mapLimit([0, 1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      await tick();
      if (n === 1) throw new Error("one failed");
      await tick();
      ended.push(n);
    });
    await expect(run).rejects.toThrow("one failed");
    // 1 failed while 0 was still running: 0 ends, nothing after 1 starts.
    expect(started).toEqual([0, 1]);
    expect(ended).toEqual([0]);
  });

  it("stops starting items once shouldStart says no; those never started are undefined", async () => {
    let stop = false;
    const out = await mapLimit(
      [1, 2, 3, 4, 5],
      2,
      async (n) => {
        await tick();
        if (n === 1) stop = true;
        return n * 10;
      },
      () => !stop,
    );
    // 2 was already in flight when 1 stopped the run: it finishes.
    expect(out).toEqual([10, 20, undefined, undefined, undefined]);
  });
});
