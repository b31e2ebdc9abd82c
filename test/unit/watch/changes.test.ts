import { describe, expect, it } from "vitest";
import { allReached, changesSince, eventLine, type ShipmentReading } from "../../../src/watch/changes.js";

const NOW = new Date("2026-03-01T12:00:00Z");

describe("changesSince", () => {
  it("one event per shipment whose status differs; a shipment seen for the first time is no event", () => {
    const seen = new Map([
      [1, { status: 6, title: "A" }],
      [2, { status: 8, title: "B" }],
    ]);
    const events = changesSince(seen, [
      { id: 1, title: "A", status: 7, delivered_at: "2026-03-01 09:00:00", updated_at: "2026-03-01 09:00:05" },
      { id: 2, title: "B", status: 8 },
      { id: 3, title: "C", status: 1 },
    ], NOW);
    expect(events).toEqual([
      { id: 1, title: "A", from: "Dispatched", to: "Delivered", at: "2026-03-01T09:00:00.000Z", window_closes_at: "2026-03-31T09:00:00.000Z" },
    ]);
  });

  it("at: updated_at for statuses without a stamp of their own, else the moment seen", () => {
    const seen = new Map([[1, { status: 1, title: "A" }]]);
    expect(changesSince(seen, [{ id: 1, title: "A", status: 2, updated_at: "2026-03-01 11:00:00" }], NOW)[0]!.at).toBe("2026-03-01T11:00:00.000Z");
    expect(changesSince(seen, [{ id: 1, title: "A", status: 2 }], NOW)[0]!.at).toBe(NOW.toISOString());
  });
});

describe("window_closes_at", () => {
  it("30 days after delivered_at for Delivered, 24 hours after arrived_at for Arrived, none otherwise", () => {
    const closes = (r: ShipmentReading) => changesSince(new Map([[1, { status: 1, title: "A" }]]), [r], NOW)[0]!.window_closes_at;
    expect(closes({ id: 1, title: "A", status: 7, delivered_at: "2026-03-01 10:00:00" })).toBe("2026-03-31T10:00:00.000Z");
    expect(closes({ id: 1, title: "A", status: 11, arrived_at: "2026-03-01 10:00:00" })).toBe("2026-03-02T10:00:00.000Z");
    expect(closes({ id: 1, title: "A", status: 11 })).toBeNull();
    expect(closes({ id: 1, title: "A", status: 8, delivered_at: "2026-03-01 10:00:00" })).toBeNull();
  });
});

describe("allReached", () => {
  it("true when every status is the one asked or later", () => {
    expect(allReached([{ id: 1, title: "A", status: 11 }, { id: 2, title: "B", status: 12 }], 11)).toBe(true);
    expect(allReached([{ id: 1, title: "A", status: 10 }, { id: 2, title: "B", status: 12 }], 11)).toBe(false);
    expect(allReached([], 11)).toBe(true);
  });
});

describe("eventLine", () => {
  it("names the window a status opens; the date only when not today", () => {
    const at = new Date(2026, 2, 1, 14, 2);
    const event = { id: 1202, title: "B", from: "Shipped", to: "Arrived", at: at.toISOString(), window_closes_at: new Date(2026, 2, 2, 14, 2).toISOString() };
    expect(eventLine(event, new Date(2026, 2, 1, 15, 0))).toBe("1202 Shipped → Arrived at 14:02 (set 2 window closes 2026-03-02 14:02)\n");
    expect(eventLine({ ...event, to: "Filed", window_closes_at: null }, new Date(2026, 2, 3, 9, 0))).toBe("1202 Shipped → Filed at 2026-03-01 14:02\n");
  });

  it("says a window that has already closed closed: \"closes 08:07\" at 11:07 reads as tomorrow's", () => {
    // Arrived yesterday at 08:07, seen only today (the watch was not running): set 2's window closed 3 hours ago.
    const event = { id: 1202, title: "B", from: "Shipped", to: "Arrived", at: new Date(2026, 2, 1, 8, 7).toISOString(), window_closes_at: new Date(2026, 2, 2, 8, 7).toISOString() };
    expect(eventLine(event, new Date(2026, 2, 2, 11, 7))).toBe("1202 Shipped → Arrived at 2026-03-01 08:07 (set 2 window closed 08:07)\n");
  });
});
