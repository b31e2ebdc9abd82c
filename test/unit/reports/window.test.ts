import { describe, expect, it } from "vitest";
import type { StoredShipment } from "../../../src/contract/index.js";
import { parseTimestamp } from "../../../src/output/time-format.js";
import { assessWindow } from "../../../src/reports/window.js";

const shipment = (fields: Partial<StoredShipment>): StoredShipment => ({ id: 42, title: "Still life", status: 1, ...fields });
const at = (text: string) => parseTimestamp(text)!;
const DAY = 24 * 60 * 60 * 1000;

describe("assessWindow: set 1 (Delivered, 30 days)", () => {
  const delivered = shipment({ status: 7, delivered_at: "2025-03-01 12:00:00" });

  it("is open within 30 days and says how long is left", () => {
    const v = assessWindow(delivered, 1, at("2025-03-02 12:00:00"));
    expect(v.kind).toBe("open");
    expect(v.message).toContain("29d00h left");
    expect(v.message).toContain("2025-03-31 12:00:00 UTC");
  });

  it("is open at exactly 30 days", () => {
    expect(assessWindow(delivered, 1, new Date(at("2025-03-01 12:00:00").getTime() + 30 * DAY)).kind).toBe("open");
  });

  it("is refused after 30 days, saying how long ago it closed", () => {
    const v = assessWindow(delivered, 1, at("2025-04-02 15:30:00"));
    expect(v).toMatchObject({ kind: "refused", reason: "window" });
    expect(v.message).toContain("closed 2d03h ago");
  });

  it("leaves a just-closed window to the service (clock skew)", () => {
    expect(assessWindow(delivered, 1, new Date(at("2025-03-31 12:00:00").getTime() + 60_000)).kind).toBe("unsure");
  });

  it("refuses by status before delivery, and calls Filed already stored", () => {
    const v = assessWindow(shipment({ status: 6 }), 1, new Date());
    expect(v).toMatchObject({ kind: "refused", reason: "status" });
    expect(v.message).toContain("Delivered (7)");
    expect(v.message).toContain("Dispatched (6)");
    expect(assessWindow(shipment({ status: 8 }), 1, new Date()).kind).toBe("stored");
    // Shipped is reached only through Filed: the service already holds set 1 (a rerun after a lost answer says so).
    expect(assessWindow(shipment({ status: 10 }), 1, new Date()).kind).toBe("stored");
    expect(assessWindow(shipment({ status: 10 }), 2, new Date())).toMatchObject({ kind: "refused", reason: "status" });
  });

  it("cannot judge the window without delivered_at", () => {
    expect(assessWindow(shipment({ status: 7 }), 1, new Date()).kind).toBe("unsure");
  });
});

describe("assessWindow: set 2 (Arrived, 24 hours)", () => {
  const arrived = shipment({ status: 11, arrived_at: "2025-03-01 08:00:00" });

  it("shows hours and minutes left", () => {
    const v = assessWindow(arrived, 2, at("2025-03-01 10:15:00"));
    expect(v.kind).toBe("open");
    expect(v.message).toContain("21h45m left");
  });

  it("is open at exactly 24 hours and refused after", () => {
    expect(assessWindow(arrived, 2, at("2025-03-02 08:00:00")).kind).toBe("open");
    const v = assessWindow(arrived, 2, at("2025-03-02 09:00:00"));
    expect(v).toMatchObject({ kind: "refused", reason: "window" });
    expect(v.message).toContain("closed 1h00m ago");
  });

  it("refuses set 2 while only Delivered and calls Completed stored", () => {
    expect(assessWindow(shipment({ status: 7 }), 2, new Date())).toMatchObject({ kind: "refused", reason: "status" });
    expect(assessWindow(shipment({ status: 12 }), 2, new Date()).kind).toBe("stored");
  });
});

describe("a delivery time not in the contract's form", () => {
  it("is not guessed at (a date alone, a local time without a zone): the window is left to the service, saying why", () => {
    for (const delivered_at of ["2025-03-01", "03/01/2025 12:00:00"]) {
      const v = assessWindow(shipment({ status: 7, delivered_at }), 1, at("2025-03-02 12:00:00"));
      expect(v.kind).toBe("unsure");
      expect(v.message).toContain(`its delivered_at "${delivered_at}" is not a time of the contract's form`);
    }
  });
});

describe("holdsReportSet: what a status says about a stored report", () => {
  it("set 1 is held from Filed on (every later status passes through Filed); set 2 only when Completed", async () => {
    const { holdsReportSet } = await import("../../../src/reports/window.js");
    const held1 = Array.from({ length: 12 }, (_, i) => i + 1).filter((s) => holdsReportSet(s, 1));
    const held2 = Array.from({ length: 12 }, (_, i) => i + 1).filter((s) => holdsReportSet(s, 2));
    expect(held1).toEqual([8, 9, 10, 11, 12]);
    expect(held2).toEqual([12]);
  });

  it("calls a shipment already past Filed (Shipped) 'already stored' for set 1 instead of refusing it", () => {
    const verdict = assessWindow(shipment({ status: 10, delivered_at: "2025-03-01 12:00:00" }), 1, at("2025-03-02 12:00:00"));
    expect(verdict.kind).toBe("stored");
  });
});
