// From two readings of the same shipments to the events `watch` reports: one per shipment whose status differs from
// the one last seen. A shipment seen for the first time is the baseline, not a change.
import { ShipmentStatus, shipmentStatusName, type StoredShipment } from "../contract/index.js";
import { windowClosesAt, windowSetOf } from "../reports/window.js";
import { localZone, parseTimestamp } from "../output/time-format.js";
import type { Seen } from "./watch-state.js";

/** One change, as `--ndjson` prints it and `--exec` receives it on stdin (README "Watching status changes"). */
export interface WatchEvent {
  id: number;
  title: string;
  /** Status names, as the rest of shipctl shows them ("Drop-Off"). */
  from: string;
  to: string;
  /** ISO 8601 UTC: when the service says the change happened (see changeTime). */
  at: string;
  /** When the condition-report window the new status opens closes (ISO 8601 UTC), or null when it opens none. */
  window_closes_at: string | null;
}

export type ShipmentReading = Pick<StoredShipment, "id" | "title" | "status" | "updated_at" | "delivered_at" | "arrived_at">;

export function changesSince(seen: ReadonlyMap<number, Seen>, readings: readonly ShipmentReading[], now: Date): WatchEvent[] {
  const events: WatchEvent[] = [];
  for (const r of readings) {
    const before = seen.get(r.id);
    if (!before || before.status === r.status) continue;
    // The report window the new status opens (as `due` and `report upload` judge it), if any.
    const set = windowSetOf(r.status);
    events.push({
      id: r.id,
      title: r.title,
      from: shipmentStatusName(before.status),
      to: shipmentStatusName(r.status),
      at: changeTime(r, now).toISOString(),
      window_closes_at: (set === undefined ? undefined : windowClosesAt(r, set))?.toISOString() ?? null,
    });
  }
  return events;
}

/**
 * When the change happened: the service's own stamp of the event for Delivered and Arrived, else updated_at (the
 * service stamps it when a status changes), else the moment it was seen. So a change found after a restart keeps
 * its own time instead of the restart's.
 */
function changeTime(r: ShipmentReading, now: Date): Date {
  const stamp = r.status === ShipmentStatus.Delivered ? r.delivered_at : r.status === ShipmentStatus.Arrived ? r.arrived_at : undefined;
  return parseTimestamp(stamp) ?? parseTimestamp(r.updated_at) ?? now;
}

/** `--until`: every shipment has reached the status, or passed it (statuses are numbered in lifecycle order). */
export function allReached(readings: readonly ShipmentReading[], until: number): boolean {
  return readings.every((r) => r.status >= until);
}

/**
 * `1201 Delivered → Filed at 14:02 UTC+01:00`, and the window a status opens; times in the local zone, named, with the
 * date when not today. A change found late (after a restart) may come with its window already closed: "closed 08:07", not "closes
 * 08:07", which without a date reads as tomorrow's. `now`: the service's now, whose clock the window is judged on.
 */
export function eventLine(event: WatchEvent, now: Date): string {
  const set = event.to === shipmentStatusName(ShipmentStatus.Delivered) ? 1 : 2;
  const closes = event.window_closes_at ? new Date(event.window_closes_at) : undefined;
  const window = closes ? ` (set ${set} window ${closes < now ? "closed" : "closes"} ${localTime(closes, now)})` : "";
  return `${event.id} ${event.from} → ${event.to} at ${localTime(new Date(event.at), now)}${window}\n`;
}

function localTime(date: Date, now: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())} ${localZone(date)}`;
  const sameDay = date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth() && date.getDate() === now.getDate();
  return sameDay ? time : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}
