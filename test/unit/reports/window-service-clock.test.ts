// Report windows judged on the service's clock: local now moved by the offset from the Date header (serviceNow), so
// a service clock far from ours (the sandbox's movable clock, a machine without NTP) gives the service's verdict.
import { describe, expect, it } from "vitest";
import { serviceNow } from "../../../src/api/service-clock.js";
import type { Clock } from "../../../src/clock.js";
import type { StoredShipment } from "../../../src/contract/index.js";
import { assessWindow } from "../../../src/reports/window.js";

const DAY = 24 * 60 * 60 * 1000;
const local: Clock = { now: () => new Date("2026-11-22T06:00:00Z"), sleep: () => Promise.resolve() };
/** Arrived by the service's clock, which reads 2025-01-01 while ours reads 2026-11-22. */
const arrived: StoredShipment = { id: 20, title: "Still life", status: 11, arrived_at: "2025-01-01 00:00:00" };
const offsetTo2025 = Date.parse("2025-01-01T01:00:00Z") - local.now().getTime();

describe("assessWindow with the service's now", () => {
  it("is open when the service's clock is an hour after arrival, though ours is almost two years later", () => {
    const v = assessWindow(arrived, 2, serviceNow(offsetTo2025, local));
    expect(v).toMatchObject({ kind: "open" });
    expect(v.message).toContain("23h00m left");
  });

  it("falls back to local time without an offset (and then refuses: by our clock the window closed long ago)", () => {
    expect(assessWindow(arrived, 2, serviceNow(undefined, local))).toMatchObject({ kind: "refused", reason: "window" });
  });

  it("refuses when the service's clock is two days past arrival while ours would say the window is open", () => {
    const fresh: StoredShipment = { ...arrived, arrived_at: "2026-11-22 05:00:00" };
    expect(assessWindow(fresh, 2, local.now()).kind).toBe("open");
    expect(assessWindow(fresh, 2, serviceNow(2 * DAY, local))).toMatchObject({ kind: "refused", reason: "window" });
  });
});
