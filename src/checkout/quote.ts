// `shipctl checkout --quote`: the pricing half of a checkout. The shipments are read (those no longer a Draft are
// reported and left out, as a checkout would) and priced in the same sessions of at most 10, then shown, and that is
// all: no confirmation, no payment, and neither the checkout ledger nor its lock is touched, so a quote never waits
// for (or holds up) a checkout that is paying.
import { UsageError } from "../errors.js";
import type { Deps } from "../deps.js";
import { formatUsd } from "../output/money.js";
import { printJson } from "../output/json.js";
import { tableWidth } from "../output/table.js";
import { draftsAndSkipped, type CheckoutPlan } from "./checkout-model.js";
import { priceSessions } from "./price.js";
import { readShipmentsById } from "./paid-read-back.js";
import { priceTable, quoteDocument, skippedNote, totalOf } from "./present.js";
import { counted } from "../output/counted.js";

export async function quoteShipments(deps: Deps, plan: Pick<CheckoutPlan, "ids" | "maxTotalCents">): Promise<void> {
  const note = (line: string) => deps.io.err(`${line}\n`);
  const api = await deps.api();
  const stored = await readShipmentsById(api, plan.ids, deps.signal);
  const { drafts: toPrice, skipped } = draftsAndSkipped(stored);
  if (skipped.length > 0) note(skippedNote(skipped, "not priced"));
  if (toPrice.length === 0) {
    note(`nothing to price: ${plan.ids.length === 1 ? "the shipment is" : `all ${plan.ids.length} shipments are`} already paid`);
    if (deps.globals.json) printJson(deps.io, quoteDocument({ status: "nothing-to-pay", sessions: [], skipped }));
    return;
  }
  const sessions = await priceSessions({ api, signal: deps.signal, warn: note }, toPrice);
  const total = totalOf(sessions);
  const over = plan.maxTotalCents !== undefined && total > plan.maxTotalCents;
  if (deps.globals.json) printJson(deps.io, quoteDocument({ status: over ? "over-max-total" : "quoted", sessions, skipped }));
  else deps.io.out(priceTable(sessions, { theme: deps.theme.out, width: tableWidth(deps.io) }));
  if (over) {
    throw new UsageError(`total ${formatUsd(total)} exceeds --max-total ${formatUsd(plan.maxTotalCents!)}`, {
      hint: "This was a quote: nothing was charged. A checkout with the same --max-total would refuse it too.",
    });
  }
  note(`quote: ${formatUsd(total)} for ${counted(toPrice.length, "shipment")}; nothing was charged (run the same command without --quote to pay)`);
}
