import { describe, expect, it } from "vitest";
import { allReached, changesSince, eventLine, type ShipmentReading } from "../../../src/watch/changes.js";
import { localZone } from "../../../src/output/time-format.js";
import { TZ_SWITCH, needs } from "../../helpers/system.js";

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
    const zone = localZone(at);
    const event = { id: 1202, title: "B", from: "Shipped", to: "Arrived", at: at.toISOString(), window_closes_at: new Date(2026, 2, 2, 14, 2).toISOString() };
    expect(eventLine(event, new Date(2026, 2, 1, 15, 0))).toBe(`1202 Shipped → Arrived at 14:02 ${zone} (set 2 window closes 2026-03-02 14:02 ${zone})\n`);
    expect(eventLine({ ...event, to: "Filed", window_closes_at: null }, new Date(2026, 2, 3, 9, 0))).toBe(`1202 Shipped → Filed at 2026-03-01 14:02 ${zone}\n`);
  });

  it.skipIf(!TZ_SWITCH)(needs(TZ_SWITCH, "time zones", "names the zone of its local times: UTC, or the offset from it that moment had (summer time too)"), () => {
    const event = (at: string) => ({ id: 1, title: "A", from: "Draft", to: "Filed", at, window_closes_at: null });
    const tz = process.env.TZ;
    try {
      for (const [zone, winter, summer] of [["UTC", "14:02 UTC", "14:02 UTC"], ["Europe/Paris", "15:02 UTC+01:00", "16:02 UTC+02:00"], ["America/St_Johns", "10:32 UTC-03:30", "11:32 UTC-02:30"]]) {
        process.env.TZ = zone;
        expect(eventLine(event("2026-01-10T14:02:00Z"), new Date("2026-01-10T18:00:00Z")), zone).toBe(`1 Draft → Filed at ${winter}\n`);
        expect(eventLine(event("2026-07-10T14:02:00Z"), new Date("2026-07-10T18:00:00Z")), zone).toBe(`1 Draft → Filed at ${summer}\n`);
      }
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  it("says a window that has already closed closed: \"closes 08:07\" at 11:07 reads as tomorrow's", () => {
    // Arrived yesterday at 08:07, seen only today (the watch was not running): set 2's window closed 3 hours ago.
    const event = { id: 1202, title: "B", from: "Shipped", to: "Arrived", at: new Date(2026, 2, 1, 8, 7).toISOString(), window_closes_at: new Date(2026, 2, 2, 8, 7).toISOString() };
    const zone = localZone(new Date(2026, 2, 1, 8, 7));
    expect(eventLine(event, new Date(2026, 2, 2, 11, 7))).toBe(`1202 Shipped → Arrived at 2026-03-01 08:07 ${zone} (set 2 window closed 08:07 ${zone})\n`);
  });
});
