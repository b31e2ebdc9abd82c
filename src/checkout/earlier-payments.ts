// Before a checkout reads or prices anything: payments an earlier run sent whose answers never came (rows in flight in
// the checkout ledger) are settled by reading their shipments back (paid-read-back.ts, the ledger's settle engine):
//   Confirmed or later                   -> paid by that payment: recorded, and the shipment is skipped as paid
//   still Draft after the settle time    -> not paid: recorded, and the shipment may be paid now
//   still Draft before the settle time   -> the service may still be applying it: waited for (a countdown) unless
//                                           --no-wait; still so at the end, the shipment is neither priced nor paid
// Rows of other shipments in flight are settled too, without waiting (a few reads): they are this run's business only
// in that no payment should stay unsettled longer than it must.
import type { ApiClient } from "../api/client-types.js";
import type { Deps } from "../deps.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import { settleLedger } from "../ledger/settle-ledger.js";
import type { Settlement } from "../ledger/settle.js";
import { formatSettleTime } from "../output/time-format.js";
import { paidFinder } from "./paid-read-back.js";
import { counted } from "../output/counted.js";
import { serviceFlags } from "../output/shell-quote.js";

export interface EarlierPayments {
  /** Ids of this run that an earlier payment was found to have paid. */
  paid: Set<number>;
  /** Ids of this run whose earlier payment may still be going through, with when it no longer can. */
  inFlight: Map<number, Date>;
}

type SettleDeps = Pick<Deps, "clock" | "signal" | "io" | "globals">;

export async function settleEarlierPayments(deps: SettleDeps, ledger: InputLedger, api: ApiClient, ids: readonly number[], wait: boolean): Promise<EarlierPayments> {
  const result: EarlierPayments = { paid: new Set(), inFlight: new Map() };
  const flying = ledger.inFlight();
  if (flying.size === 0) return result;
  const mine = new Set(ids.map(String));
  const finder = paidFinder(api, deps.signal);
  const done = () => ({ state: "paid" }) as const;
  const noun = { noun: "shipment payment" };

  const others = [...flying.keys()].filter((k) => !mine.has(k));
  if (others.length > 0) {
    const settled = await settleLedger(ledger, finder, deps, { only: (k) => !mine.has(k), wait: false, ...noun, done });
    sayOthers(deps, others, settled);
  }

  const own = ids.filter((id) => flying.has(String(id)));
  if (own.length === 0) return result;
  deps.io.err(
    `A payment an earlier run sent for ${own.length === 1 ? `shipment ${own[0]}` : `shipments ${own.join(", ")}`} never had its answer; ` +
      "reading the shipments back to settle it before anything is priced...\n",
  );
  const settled = await settleLedger(ledger, finder, deps, { only: (k) => mine.has(k), wait, ...noun, done });
  for (const id of own) {
    const s = settled.get(String(id));
    if (s?.state === "applied") result.paid.add(id);
    else if (s?.state !== "not-applied") result.inFlight.set(id, settleTimeOf(ledger, id, s));
  }
  // The rest were settled not paid.
  const notPaid = own.length - result.paid.size - result.inFlight.size;
  const line = [
    result.paid.size > 0 ? `${result.paid.size} paid by it` : "",
    notPaid > 0 ? `${notPaid} not paid by it (payable now)` : "",
    result.inFlight.size > 0 ? `${result.inFlight.size} may still be being paid (not priced or paid now)` : "",
  ].filter((p) => p !== "");
  deps.io.err(`  ${line.join(", ")}.\n`);
  return result;
}

/** When a payment in flight can no longer be going through: the settlement's, else the row's own. */
function settleTimeOf(ledger: InputLedger, id: number, s: Settlement | undefined): Date {
  if (s?.state === "in-flight") return s.settleAt;
  const row = ledger.row(String(id));
  return new Date(row?.state === "in_flight" ? row.settle_at : Date.now());
}

function sayOthers(deps: SettleDeps, keys: readonly string[], settled: ReadonlyMap<string, Settlement>): void {
  const count = (state: Settlement["state"]) => keys.filter((k) => settled.get(k)?.state === state);
  const paid = count("applied");
  const notPaid = count("not-applied");
  const still = keys.filter((k) => !paid.includes(k) && !notPaid.includes(k));
  let text = `An earlier checkout's payment of ${counted(keys.length, "shipment")} not named here (${keys.join(", ")}) had lost its answer: `;
  text += [paid.length > 0 ? `${paid.length} paid` : "", notPaid.length > 0 ? `${notPaid.length} not paid` : ""].filter((p) => p !== "").join(", ");
  if (still.length > 0) {
    const until = Math.max(...still.map((k) => (settled.get(k) as { settleAt?: Date } | undefined)?.settleAt?.getTime() ?? 0));
    text += `${paid.length + notPaid.length > 0 ? ", " : ""}${still.length} may still be going through` + (until > 0 ? ` until ${formatSettleTime(new Date(until))}` : "");
    // The service this run reached (its flags): the ids are its shipments, and its ledger holds their payments.
    const settle = ["shipctl checkout", ...still, ...serviceFlags(deps.globals)].join(" ");
    text += `; \`${settle}\` settles ${still.length === 1 ? "it" : "them"}`;
  }
  deps.io.err(`${text}.\n`);
}
