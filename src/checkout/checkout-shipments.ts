// A checkout run (`shipctl checkout <id>...`): settle payments an earlier run left in flight (earlier-payments.ts),
// read the shipments (skip those paid before), price them in sessions of at most 10, show every price and the total,
// check --max-total, confirm once, then pay session by session (pay.ts), each payment recorded in the checkout ledger
// (checkout-ledger.ts). A rerun of the same command is always safe: a payment that may still be going through is waited
// for (or its shipments left alone), and anything no longer a Draft is reported and skipped before pricing.
import { CancelledError, errorJson, InterruptedError, UsageError, type CliError } from "../errors.js";
import type { Deps } from "../deps.js";
import type { ApiClient } from "../api/client-types.js";
import { formatUsd } from "../output/money.js";
import { printJson, withError } from "../output/json.js";
import { tableWidth } from "../output/table.js";
import { conclude } from "./conclude.js";
import { draftsAndSkipped, type CheckoutPlan, type CheckoutSession, type RunStatus } from "./checkout-model.js";
import { paySessions, type PayResult } from "./pay.js";
import { counted } from "../output/counted.js";
import { chargedCents, jsonDocument, priceTable, rerunCommand, skippedNote, totalOf } from "./present.js";
import { priceSessions } from "./price.js";
import { readShipmentsById } from "./paid-read-back.js";
import { openCheckoutLedger } from "./checkout-ledger.js";
import { settleEarlierPayments } from "./earlier-payments.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import { formatSettleTime } from "../output/time-format.js";

/** Checks before any request are the command's (commands/checkout/checkout.ts): ids, flags, --yes without a terminal. */
export async function checkoutShipments(deps: Deps, options: CheckoutPlan): Promise<void> {
  const api = await deps.api();
  const ledger = await openCheckoutLedger(deps);
  try {
    return await checkoutWith(deps, options, api, ledger);
  } finally {
    await ledger.close();
  }
}

async function checkoutWith(deps: Deps, options: CheckoutPlan, api: ApiClient, ledger: InputLedger): Promise<void> {
  const note = (line: string) => deps.io.err(`${line}\n`);
  // What the run came to: kept with --quiet.
  const summary = (line: string) => deps.io.alert(`${line}\n`);
  const earlier = await settleEarlierPayments(deps, ledger, api, options.ids, options.wait);
  const held = options.ids.filter((id) => earlier.inFlight.has(id));
  const heldUntil = held.length > 0 ? new Date(Math.max(...held.map((id) => earlier.inFlight.get(id)!.getTime()))) : undefined;
  if (deps.signal.aborted) {
    throw new InterruptedError("interrupted while waiting for an earlier payment to settle: nothing was priced or paid", {
      hint: `Rerun: it settles that payment first, and skips what is already paid, so it never charges twice:\n  ${rerunCommand(options, options.ids, deps.globals)}`,
    });
  }
  for (const id of held) {
    note(`shipment ${id}: a payment an earlier run sent may still be going through until ${formatSettleTime(earlier.inFlight.get(id)!)}: not priced or paid now`);
  }

  const stored = await readShipmentsById(api, options.ids.filter((id) => !earlier.inFlight.has(id)), deps.signal);
  const { drafts, skipped } = draftsAndSkipped(stored);
  const paidByLost = skipped.filter((s) => earlier.paid.has(s.id));
  const paidBefore = skipped.filter((s) => !earlier.paid.has(s.id));
  if (paidByLost.length > 0) note(skippedNote(paidByLost, "skipped", "paid by an earlier run's payment whose answer was lost"));
  if (paidBefore.length > 0) note(skippedNote(paidBefore, "skipped", "paid before this run"));
  const toPay = drafts.map((s) => s.id);
  // The --json document is printed whatever the outcome, so a script always learns what was paid; then the run ends.
  const finish = (status: RunStatus, sessions: CheckoutSession[], pay: PayResult, error?: CliError, rerun?: string) => {
    const document = jsonDocument({ ...pay, status, sessions, skipped, rerun });
    if (deps.globals.json) printJson(deps.io, withError(document, error && errorJson(error)));
    if (error) throw error;
  };
  const withHeld = (pay: PayResult): PayResult => {
    if (held.length === 0) return pay;
    const settleAt = pay.settleAt && pay.settleAt > heldUntil! ? pay.settleAt : heldUntil;
    return { ...pay, unknown: [...pay.unknown, ...held], settleAt };
  };
  // A run that stops before its first payment: nothing paid, every shipment to pay left unpaid.
  const nonePaid = withHeld({ paid: [], unpaid: toPay, unknown: [] });
  if (toPay.length === 0) {
    if (held.length > 0) {
      const rerun = rerunCommand(options, held, deps.globals);
      const { status, error } = conclude(nonePaid, { retries: options.retries, sessions: 0, charged: 0, rerun, held });
      return finish(status, [], nonePaid, error, rerun);
    }
    summary(`nothing to pay: ${options.ids.length === 1 ? "the shipment is" : `all ${options.ids.length} shipments are`} already paid`);
    return finish("nothing-to-pay", [], nonePaid);
  }

  const sessions = await priceSessions({ api, signal: deps.signal, warn: note }, drafts);
  const total = totalOf(sessions);
  const ask = !options.yes;
  if (!deps.globals.json) {
    deps.io.out(priceTable(sessions, { theme: deps.theme.out, width: tableWidth(deps.io) }));
  } else if (ask) {
    // stdout is kept for the one JSON document, but the person answering the prompt must see what they pay for.
    deps.io.alert(priceTable(sessions, { theme: deps.theme.err, width: deps.io.stderrIsTTY ? deps.io.columns : undefined }));
  }

  if (options.maxTotalCents !== undefined && total > options.maxTotalCents) {
    return finish("over-max-total", sessions, nonePaid, new UsageError(
      `total ${formatUsd(total)} exceeds --max-total ${formatUsd(options.maxTotalCents)}`,
      { hint: "Nothing was charged. Raise --max-total, or pay fewer shipments at a time." },
    ));
  }

  if (options.confirmTotalCents !== undefined && total !== options.confirmTotalCents) {
    return finish("total-not-confirmed", sessions, nonePaid, new UsageError(
      `total ${formatUsd(total)} is not the confirmed ${formatUsd(options.confirmTotalCents)}: nothing was charged`,
      {
        hint:
          held.length > 0
            ? `${counted(held.length, "shipment")} (${held.join(", ")}) left out while an earlier payment may still be going through, so this is not the quoted total; nothing was charged. Quote again after that payment settles.`
            : "Prices change, or the shipments did: quote again (checkout --quote) and confirm the new total.",
      },
    ));
  }

  if (ask && !(await confirmed(deps, `Charge ${formatUsd(total)} for ${counted(toPay.length, "shipment")}?`))) {
    return finish("cancelled", sessions, nonePaid, new CancelledError("cancelled: nothing was charged"));
  }

  const paid = withHeld(await paySessions({ deps, api, ledger, options, note }, sessions));
  const rest = [...paid.unpaid, ...paid.unknown];
  const charged = chargedCents(sessions, paid.paid);
  const rerun = rest.length > 0 ? rerunCommand(options, rest, deps.globals) : undefined;
  const { status, error } = conclude(paid, {
    retries: options.retries,
    sessions: sessions.length,
    charged,
    rerun,
    held,
    interrupted: deps.signal.aborted,
  });
  if (!error) summary(`${deps.theme.err.ok("✓")} paid ${formatUsd(charged)} for ${counted(paid.paid.length, "shipment")}`);
  return finish(status, sessions, paid, error, rerun);
}

async function confirmed(deps: Deps, question: string): Promise<boolean> {
  try {
    return await deps.prompter.confirm(question, { default: false });
  } catch (err) {
    // Ctrl-C or Ctrl-D at the prompt is a no.
    if (err instanceof CancelledError) return false;
    throw err;
  }
}
