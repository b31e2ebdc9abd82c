// `shipctl shipment create` from flags, --file FILE.json or --file - : the CSV batch's machinery fed by items instead
// of spreadsheet rows. POST /api/v1/shipments has no idempotency key and is never resent by the HTTP layer once it
// may have arrived, so one shipment from flags gets the same protection as a 2,000-row file: every item checked
// first; the intent recorded in the ledger before each request and the outcome after; on a rerun, items already
// created are skipped (their ids reported) and lost answers reconciled by reading the shipments back before
// anything is resent. Items go ten a request (create-sender.ts), a 422 fails the items it names and the others of that
// request are sent again, inline addresses are verified once each (--no-verify, --accept-recommended).
import { retryNote, type Deps } from "../deps.js";
import { ExitCode } from "../errors.js";
import { invalidInput } from "../input/problems.js";
import { SHIPMENT_FIELD_FLAGS, shipmentFlagFor } from "../input/shipment-fields.js";
import { AddressSet } from "../batch/address-set.js";
import { WouldSendRows, reportDryRun } from "../batch/dry-run-report.js";
import { finishRun } from "../batch/finish.js";
import { renderProblems, validCountLine } from "../csv/problems-report.js";
import type { CellProblem, InvalidRow } from "../csv/row-types.js";
import { serviceFlags, shellQuote } from "../output/shell-quote.js";
import { checkItems, labelOf, type InvalidItem, type ValidItem } from "./item-check.js";
import { readItems, type ItemInputFlags, type ItemSource } from "./item-input.js";
import { keyItems, type KeyedItem } from "./item-keys.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import { sentElsewhere, sentElsewhereError } from "../ledger/copy-guard.js";
import { realpath } from "node:fs/promises";
import { openRunLedger } from "../batch/open-csv-ledger.js";
import { settledEarlier } from "../batch/settle-lost.js";
import { Outcomes } from "../batch/outcomes.js";
import { markInvalid, verifyDistinct } from "../batch/before-send.js";
import { sendFlags, type SendOptions } from "../batch/run-options.js";
import { ADDRESS_FIELDS, SHIPMENTS_PER_CREATE } from "../contract/index.js";
import { CREATE_WORDS, endCreates, lookFor, rehearseCreates, sendable, sendCreates, settleEarlierCreates, type CreateRun, type Decided } from "./send-creates.js";

/** One run of `shipment create` from flags or JSON: what the send steps need, with the input it was given. */
type ItemRun = CreateRun & { flags: ItemInputFlags; source: ItemSource };

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
  const rows: InvalidRow[] = invalid.map((i) => ({ ok: false, row: i.item, label: i.label, reference: i.reference, problems: i.problems.map((p) => ({ column: p.field, reason: p.message })) }));
  // Every problem of a list at once, item by item, then "N of M items are valid" (as a CSV's rows are reported).
  if (input.source.list) {
    const whereAll = `--json lists them all (its "${options.dryRun ? "invalid" : "failed"}" list)`;
    deps.io.alert(renderProblems(input.source.name, rows, deps.theme.err, { position: "item", whereAll }));
    deps.io.err(`${validCountLine(total - invalid.length, total, "item")}\n`);
  }
  markInvalid(run, rows);
  if (invalid.length > 0 && !options.skipInvalid) {
    if (!options.dryRun) deps.io.alert("Nothing was sent. Fix the items above and run again, or pass --skip-invalid to send only the valid items.\n");
    // The valid items held back are "not sent", so the document names every item, as a CSV's does its rows.
    const why = "the file has invalid items: fix them, or pass --skip-invalid to send the valid items";
    for (const i of input.items) if (!run.outcomes.get(i.item)) run.outcomes.set(i.item, { status: "pending", label: labelOf(i.raw), reference: i.reference, error: why });
    // A dry run says so in its own document ("dry_run": true, "invalid"), as a CSV's dry run does.
    if (options.dryRun) {
      const wouldSend = new WouldSendRows(deps.globals.json ? (text) => deps.io.out(text) : undefined, "item");
      return reportDryRun(deps, run.outcomes, wouldSend, CREATE_WORDS, { perRequest: SHIPMENTS_PER_CREATE.max, refused: true, exitCode: ExitCode.Usage });
    }
    return finish(run, { exitCode: ExitCode.Usage });
  }
  const valid = keyItems(checked.filter((c): c is ValidItem => c !== undefined && c.ok));
  if (valid.length === 0) return finish(run, { exitCode: ExitCode.Usage });

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

async function openItemLedger(run: ItemRun, items: readonly KeyedItem[]): Promise<InputLedger> {
  const { source } = run;
  return openRunLedger(run, {
    kind: "shipment-create",
    source: source.path !== undefined ? await realpath(source.path).catch(() => source.path!) : source.name === "stdin" ? "stdin" : "flags",
    // What another input sent already (a CSV row given again with flags) is not sent again (ledger/copy-guard.ts).
    check: async (ledger) => {
      const elsewhere = await sentElsewhere(ledger, items.map((i) => i.key));
      if (elsewhere.size > 0) throw sentElsewhereError(source.name === "flags" || source.path === undefined ? "The shipment" : source.name, "shipment create", [...elsewhere.values()], items.length, { shared: ledger.store.shared === true, serviceFlags: serviceFlags(run.deps.globals) });
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
    return reportDryRun(deps, outcomes, wouldSend, CREATE_WORDS, { perRequest: SHIPMENTS_PER_CREATE.max, refused: false, ledger: ledger.path });
  }

  const sent = await sendCreates(run, ledger, { rows: items, decide, total, position: "item" });
  // Items the run never reached (it stopped first) are listed as not sent, so the output names every item.
  for (const item of items) if (!outcomes.get(item.row)) outcomes.set(item.row, { status: "pending", label: item.label, reference: item.reference });
  jsonFieldProblems(outcomes);
  sent.tick();
  run.progress?.finish();
  run.progress = undefined;
  return endCreates(run, sent.stopped, (error) => finish(run, { ledgerPath: ledger.path, error }));
}

/** The end of the run (batch/finish.ts) in the words of items. `error`: why it stopped early, for the --json document. */
function finish(run: ItemRun, input: { ledgerPath?: string; exitCode?: number; error?: unknown }): Promise<number> {
  return finishRun(
    { deps: run.deps, outcomes: run.outcomes, options: run.options, resume: resumeCommand(run) },
    {
      ...input,
      words: CREATE_WORDS,
      command: "shipment create",
      unreached: 0,
      position: "item",
      unknownWords: { did: "created", reads: "shipments" },
      rerunNote: (skipped) =>
        `Nothing was sent: ${skipped === 1 ? "this shipment was" : "these shipments were"} created by an earlier run of the same input. ` +
        `To create another shipment with the same details, give it a new reference (--reference, or "reference" in the file).\n`,
    },
  );
}

/** The command to run again: the same input, flags and options that change what is sent. */
function resumeCommand(run: ItemRun): string {
  const { flags, options } = run;
  const parts = ["shipctl", "shipment", "create"];
  if (flags.file !== undefined) parts.push("--file", shellQuote(flags.file));
  for (const f of SHIPMENT_FIELD_FLAGS) {
    const value = flags[f.key];
    if (value !== undefined) parts.push(f.flag, shellQuote(value));
  }
  if (flags.reference !== undefined) parts.push("--reference", shellQuote(flags.reference));
  parts.push(...sendFlags(options));
  parts.push(...serviceFlags(run.deps.globals));
  const line = parts.join(" ");
  return flags.file === "-" ? `${line} < (the same input)` : line;
}

/**
 * A 422 is mapped back to the request's items (create-sender.ts) under the CSV's column names (`fulfillment_phone`);
 * for JSON input the field's path in the shipment reads better (`fulfillment_address.phone`).
 */
function jsonFieldProblems(outcomes: Outcomes): void {
  for (const [item, o] of outcomes.entries()) {
    if (!o.problems || o.problems.length === 0 || o.status !== "failed") continue;
    const problems: CellProblem[] = o.problems.map((p) => ({ ...p, column: jsonField(p.column) }));
    if (problems.every((p, i) => p.column === o.problems![i]!.column)) continue;
    outcomes.update(item, { problems, error: problems.map((p) => `${p.column}: ${p.reason}`).join("; ") });
  }
}

const INLINE_COLUMN = new RegExp(`^(fulfillment|destination)_(${ADDRESS_FIELDS.join("|")})$`);

function jsonField(column: string): string {
  const m = INLINE_COLUMN.exec(column);
  return m ? `${m[1]}_address.${m[2]}` : column;
}
