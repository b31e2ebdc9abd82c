// How a stored shipment reads for people: status by name, money in dollars, addresses on one line, times in UTC.
import { shipmentSide, shipmentStatusName, type AddressSide, type StoredShipment } from "../contract/index.js";
import type { EnumLabels } from "../input/table-values.js";
import { formatUsd } from "../output/money.js";
import { formatTimestamp } from "../output/time-format.js";

/** Whole USD (the shipment's declared value) as "$1,200.00". */
export function usd(dollars: number | null | undefined): string {
  return dollars === null || dollars === undefined ? "" : formatUsd(dollars * 100);
}

/** Cents (a price) as dollars; a shipment no price session has priced yet says so. */
export function price(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? "not priced" : formatUsd(cents);
}

/** A side on one line: the address and where it came from; a service that sent only the id gives the id alone. */
function oneLineAddress(s: StoredShipment, side: AddressSide, labels: EnumLabels): string {
  const { id, address: a } = shipmentSide(s, side);
  if (!a) return id === null ? "" : `address ${id}`;
  const parts = [a.name, a.line_1, a.line_2, a.city, `${a.region} ${a.post_code}`, `country ${labels.country(a.country)}`];
  const text = parts.filter((p) => p !== null && p !== undefined && p !== "").join(", ");
  return id === null ? `${text} (inline)` : `${text} (address ${id})`;
}

export function dimensions(s: StoredShipment): string {
  if (s.length === undefined || s.height === undefined || s.depth === undefined) return "";
  return `${s.length} x ${s.height} x ${s.depth} in (L x H x D)`;
}

export function shipmentRows(s: StoredShipment, labels: EnumLabels, now: Date): Array<[string, string]> {
  const rows: Array<[string, string]> = [
    ["id", String(s.id)],
    ["title", s.title],
    ["status", shipmentStatusName(s.status)],
    ["value", usd(s.value)],
    ["size", dimensions(s)],
    ["service", s.service === undefined ? "" : labels.service(s.service)],
    ["price", price(s.price)],
    ["from", oneLineAddress(s, "fulfillment", labels)],
    ["to", oneLineAddress(s, "destination", labels)],
    ["created", formatTimestamp(s.created_at, { now })],
    ["updated", formatTimestamp(s.updated_at, { now })],
  ];
  if (s.delivered_at) rows.push(["delivered", formatTimestamp(s.delivered_at, { now })]);
  if (s.arrived_at) rows.push(["arrived", formatTimestamp(s.arrived_at, { now })]);
  return rows;
}
