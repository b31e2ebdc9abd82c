// `shipctl shipment create` from flags, --file FILE.json or --file - : the CSV batch's machinery fed by items instead
// of spreadsheet rows. POST /api/v1/shipments has no idempotency key and is never resent by the HTTP layer once it
// may have arrived, so one shipment from flags gets the same protection as a 2,000-row file: every item checked
// first; the intent recorded in the ledger before each request and the outcome after; on a rerun, items already
// created are skipped (their ids reported) and lost answers reconciled by reading the shipments back before
// anything is resent. Items go ten a request (CreateSender), a 422 fails the items it names and the others of that
// request are sent again, inline addresses are verified once each (--no-verify, --accept-recommended).
import { retryNote, type Deps } from "../deps.js";
import { ExitCode } from "../errors.js";
import { invalidInput } from "../input/problems.js";
import { shipmentFlagFor } from "../input/shipment-fields.js";
import { AddressSet } from "../batch/address-set.js";
import { WouldSendRows, reportDryRun } from "../batch/dry-run-report.js";
import { checkItems, type CheckedItem, type InvalidItem } from "./item-check.js";
import { CREATE_ITEM_WORDS, finishItems, jsonFieldProblems, type ItemRun } from "./item-finish.js";
import { readItems, type ItemInputFlags } from "./item-input.js";
import { keyItems, type KeyedItem } from "./item-keys.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import { sentElsewhere, sentElsewhereError } from "../ledger/copy-guard.js";
import { realpath } from "node:fs/promises";
import { openRunLedger } from "../batch/open-csv-ledger.js";
import { settledEarlier } from "../batch/settle-lost.js";
import { Outcomes } from "../batch/outcomes.js";
import { markInvalid, verifyDistinct } from "../batch/before-send.js";
import type { SendOptions } from "../batch/run-options.js";
import { SHIPMENTS_PER_CREATE } from "../contract/index.js";
import { endCreates, lookFor, rehearseCreates, sendable, sendCreates, settleEarlierCreates, type Decided } from "./send-creates.js";

/** `flags`: the shipment's flags and --file, read here; `options`: how the items are sent, checked by the command. */
export async function runCreateItems(deps: Deps, flags: ItemInputFlags, options: SendOptions): Promise<number> {
  const input = await readItems(deps, flags);
  const run: ItemRun = {
    deps,
    options,
    flags,
    source: input.source,
    outcomes: new Outcomes(),
    call: { signal: deps.signal, onRetry: (info) => run.say(`${retryNote(info)}\n`) },
    say: (text) => (run.progress ? run.progress.log(text) : deps.io.err(text)),
  };
  const total = input.items.length;
  const checked = await checkItems(deps, input.source, input.items, { stopAfterLocal: !options.skipInvalid });
  const invalid = checked.filter((c): c is InvalidItem => c !== undefined && !c.ok);
  if (invalid.length > 0 && !input.source.list) {
    const subject = input.source.path === undefined && input.source.name !== "stdin" ? "The shipment" : `The shipment in ${input.source.name}`;
    throw invalidInput({ subject, problems: invalid[0]!.problems, flagFor: shipmentFlagFor, hint: SINGLE_HINT });
  }
  reportInvalid(run, invalid, total);
  markInvalid(run, invalid.map((i) => ({ ok: false, row: i.item, label: i.label, reference: i.reference, problems: i.problems.map((p) => ({ column: p.field, reason: p.message })) })));
  if (invalid.length > 0 && !options.skipInvalid) {
    deps.io.alert("Nothing was sent. Fix the items above and run again, or pass --skip-invalid to send only the valid items.\n");
    return finishItems(run, { exitCode: ExitCode.Usage });
  }
  const valid = keyItems(checked.filter((c): c is Extract<CheckedItem, { ok: true }> => c !== undefined && c.ok));
  if (valid.length === 0) return finishItems(run, { exitCode: ExitCode.Usage });

  // A dry run reads the ledger as the run would, and writes nothing to it.
  const ledger = await openItemLedger(run, valid);
  try {
    return await createItems(run, valid, ledger, total);
  } finally {
    run.progress?.finish();
    run.progress = undefined;
    await ledger.close();
  }
}

const SINGLE_HINT =
  "A shipment needs --title --value --length --height --depth --service, and for each side --fulfillment-address-id / " +
  "--destination-address-id or an inline address in --file FILE.json.";

/** Every problem of a list at once, item by item, then "N of M items are valid" (stderr). */
function reportInvalid(run: ItemRun, invalid: readonly InvalidItem[], total: number): void {
  if (!run.source.list) return;
  const { io, theme } = run.deps;
  if (invalid.length > 0) {
    let out = `${theme.err.error("Invalid items")} in ${run.source.name}:\n`;
    for (const i of invalid) for (const p of i.problems) out += p.field === "(item)" ? `  item ${i.item} ${p.message}\n` : `  item ${i.item}, ${p.field}: ${p.message}\n`;
    io.alert(out);
  }
  const valid = total - invalid.length;
  io.err(`${valid} of ${total} item${total === 1 ? " is" : "s are"} valid.\n`);
}

async function openItemLedger(run: ItemRun, items: readonly KeyedItem[]): Promise<InputLedger> {
  const { source } = run;
  return openRunLedger(run, {
    kind: "shipment-create",
    source: source.path !== undefined ? await realpath(source.path).catch(() => source.path!) : source.name === "stdin" ? "stdin" : "flags",
    // What another input sent already (a CSV row given again with flags) is not sent again (ledger/copy-guard.ts).
    check: async (ledger) => {
      const elsewhere = await sentElsewhere(ledger, items.map((i) => i.key));
      if (elsewhere.size > 0) throw sentElsewhereError(source.name === "flags" || source.path === undefined ? "The shipment" : source.name, "shipment create", [...elsewhere.values()], items.length, ledger.store.shared === true);
    },
    // The recorded ids must be this organization's before an item is reported "already created" (ledger-owner.ts).
    records: async (ledger) => items.flatMap((item) => {
      const state = ledger.row(item.key);
      return state?.state === "created" ? [{ id: state.id, label: item.payload.title }] : [];
    }),
  });
}

async function createItems(run: ItemRun, items: readonly KeyedItem[], ledger: InputLedger, total: number): Promise<number> {
  const { deps, options, outcomes } = run;
  const settled = await settleEarlierCreates(run, ledger, "item");

  // Inline addresses of the items still to send, each verified once (verdicts kept in the ledger).
  const addresses = new AddressSet();
  for (const item of items) {
    if (ledger.row(item.key)?.state === "created") continue;
    for (const a of item.addresses) addresses.add(a.key, a.address, item.row);
  }
  const decisions = await verifyDistinct(run, ledger, addresses);
  // Items another machine of the organization created already are not sent (shipments/look/). A rerun with every
  // item done has nothing to look for.
  const toSend = items.some((i) => settledEarlier(ledger, settled, i.key, i) === undefined);
  const look = toSend ? await lookFor(run, ledger, "item") : undefined;
  const decide = (item: KeyedItem): Decided => {
    const done = settledEarlier(ledger, settled, item.key, { label: item.label, reference: item.reference });
    return done ? { outcome: done } : sendable(item, decisions, look);
  };
  if (options.dryRun) {
    // Reported as a CSV dry run is (dry-run-report.ts), with the exit code the run would have; nothing sent or written.
    const wouldSend = new WouldSendRows(deps.globals.json ? (text) => deps.io.out(text) : undefined, "item");
    await rehearseCreates(run, wouldSend, { rows: items, decide });
    return reportDryRun(deps, outcomes, wouldSend, CREATE_ITEM_WORDS, { perRequest: SHIPMENTS_PER_CREATE.max, refused: false, ledger: ledger.path });
  }

  const sent = await sendCreates(run, ledger, { rows: items, decide, total, position: "item" });
  // Items the run never reached (it stopped first) are listed as not sent, so the output names every item.
  for (const item of items) if (!outcomes.get(item.row)) outcomes.set(item.row, { status: "pending", label: item.label, reference: item.reference });
  jsonFieldProblems(outcomes);
  sent.tick();
  run.progress?.finish();
  run.progress = undefined;
  return endCreates(run, sent.stopped, (error) => finishItems(run, { ledgerPath: ledger.path, error }));
}
