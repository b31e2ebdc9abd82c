import { describe, expect, it } from "vitest";
import { createTestIO } from "../../helpers/test-io.js";
import { createProgress, progressLine } from "../../../src/output/progress.js";

describe("progress line", () => {
  it("is silent when stderr is not a terminal, but still passes log lines through", () => {
    const io = createTestIO({ tty: false });
    const p = createProgress(io, { total: 10 });
    p.update({ done: 3, created: 3, failed: 0 });
    p.log("a warning\n");
    p.finish();
    expect(io.stderr()).toBe("a warning\n");
    expect(io.stdout()).toBe("");
  });

  it("on a terminal, redraws in place with counts, rate and ETA, and clears on finish", () => {
    let now = 0;
    const io = createTestIO({ tty: true, columns: 200 });
    const p = createProgress(io, { total: 40, now: () => now, minIntervalMs: 0 });
    now = 2000;
    p.update({ done: 10, created: 9, failed: 1 });
    expect(io.stderr()).toBe("\r\x1b[Krows 10/40 · created 9 · failed 1 · 5.0/s · ETA 6s");
    p.finish();
    expect(io.stderr().endsWith("\r\x1b[K")).toBe(true);
    expect(io.stdout()).toBe("");
  });

  it("does not redraw more often than the interval, except for the last item", () => {
    let now = 0;
    const io = createTestIO({ tty: true });
    const p = createProgress(io, { total: 3, now: () => now, minIntervalMs: 1000 });
    p.update({ done: 1 });
    now = 500;
    p.update({ done: 2 });
    p.update({ done: 3 });
    expect(io.stderr().split("\r\x1b[K").filter(Boolean)).toHaveLength(2);
  });

  it("writes log lines above the progress line and redraws it", () => {
    const io = createTestIO({ tty: true });
    const p = createProgress(io, { now: () => 1000, minIntervalMs: 0 });
    p.update({ done: 1 });
    p.log("row 4: skipped\n");
    expect(io.stderr()).toBe("\r\x1b[Krows 1\r\x1b[Krow 4: skipped\n\r\x1b[Krows 1");
  });

  it("never draws a line wider than the terminal (it would wrap and break the redraw)", () => {
    const io = createTestIO({ tty: true, columns: 20 });
    const p = createProgress(io, { total: 1000, unit: "photos", now: () => 5000, minIntervalMs: 0 });
    p.update({ done: 10, created: 10, failed: 0 });
    expect(io.stderr().replace("\r\x1b[K", "").length).toBeLessThanOrEqual(19);
  });

  it("omits rate and ETA before anything is done, and ETA without a total", () => {
    expect(progressLine({ done: 0 }, { total: 5, elapsedMs: 1000 })).toBe("rows 0/5");
    expect(progressLine({ done: 30 }, { unit: "photos", elapsedMs: 2000 })).toBe("photos 30 · 15/s");
  });
});
