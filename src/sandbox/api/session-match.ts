// Which price session a finalize pays. contract-notes: "POST /api/v1/checkout needs that GET first, for the same
// shipments. [guide]". [assume] our reading, documented in docs/sandbox.md (Finalize):
//   - the price session of a shipment is the latest GET /api/v1/checkout that priced it; an update of the shipment
//     ends it (the price is cleared), and pricing the shipment again in another session replaces it;
//   - finalize must list exactly the shipments of one price session: every listed shipment's session is the same one,
//     and that session priced no other shipment (the order of the ids does not matter).
// So a subset of a session, ids priced in two sessions, or a session with one shipment re-priced elsewhere since are
// refused: the caller prices exactly these shipments together, then finalizes the same ids.
import type { Org, ShipmentRecord } from "../model.js";

/** Why `shipments` (each already checked: a Draft with a price) are not one price session, or undefined if they are. */
export function sessionMismatch(org: Org, shipments: readonly ShipmentRecord[]): string | undefined {
  const bySession = new Map<number | null, number[]>();
  for (const s of shipments) {
    const listed = bySession.get(s.priceSession);
    if (listed) listed.push(s.id);
    else bySession.set(s.priceSession, [s.id]);
  }

  const problems: string[] = [];
  for (const [sessionId, listed] of bySession) {
    // Sessions are appended in id order and the one being paid is nearly always among the latest.
    const session = sessionId === null ? undefined : org.priceSessions.findLast((p) => p.id === sessionId);
    if (!session) {
      problems.push(`${shipmentWord(listed)} ${listed.join(", ")} ${listed.length === 1 ? "has" : "have"} no price session on record`);
      continue;
    }
    const priced = Object.keys(session.shipments).map(Number);
    // Every listed shipment carries this session, so the session priced all of them: equal counts mean equal sets.
    if (bySession.size === 1 && priced.length === listed.length) return undefined;
    problems.push(`${shipmentWord(listed)} ${listed.join(", ")} ${listed.length === 1 ? "was" : "were"} last priced in a session of ${priced.join(", ")}`);
  }
  const ids = shipments.map((s) => s.id);
  const query = ids.map((id) => `shipments[]=${id}`).join("&");
  return (
    `A checkout must list exactly the shipments of one price session, and these are not: ${problems.join("; ")}. ` +
    `Price exactly these shipments first (GET /api/v1/checkout?${query}), then finalize the same ids.`
  );
}

function shipmentWord(ids: readonly number[]): string {
  return ids.length === 1 ? "shipment" : "shipments";
}
