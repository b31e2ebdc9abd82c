// What checkout prints: the price table for people, the one --json document for scripts, and the rerun command.
import type { GlobalOptions } from "../deps.js";
import { shipmentStatusName } from "../contract/index.js";
import { serviceFlags, shellQuote } from "../output/shell-quote.js";
import { formatUsd } from "../output/money.js";
import { renderTable, type Column } from "../output/table.js";
import type { Theme } from "../output/theme.js";
import type { PayResult } from "./pay.js";
import { sumCents, type CheckoutSession, type RunStatus, type SkippedShipment } from "./checkout-model.js";
import type { CheckoutPlan } from "./checkout-model.js";

interface Row {
  session: string;
  id: string;
  title: string;
  price: string;
}

const COLUMNS: Column<Row>[] = [
  { header: "SESSION", value: (r) => r.session, keep: true },
  { header: "ID", value: (r) => r.id, align: "right", keep: true },
  { header: "TITLE", value: (r) => r.title },
  { header: "PRICE", value: (r) => r.price, align: "right", keep: true },
];

/** One row per shipment, then the total over every session. */
export function priceTable(sessions: readonly CheckoutSession[], options: { theme?: Theme; width?: number } = {}): string {
  const rows: Row[] = sessions.flatMap((s) =>
    s.shipments.map((p) => ({ session: String(s.number), id: String(p.id), title: p.title, price: formatUsd(p.cents) })),
  );
  const count = rows.length;
  rows.push({
    session: "",
    id: "",
    title: `Total (${count} shipment${count === 1 ? "" : "s"}, ${sessions.length} session${sessions.length === 1 ? "" : "s"})`,
    price: formatUsd(totalOf(sessions)),
  });
  return renderTable(COLUMNS, rows, options);
}

export function totalOf(sessions: readonly CheckoutSession[]): number {
  return sumCents(sessions.map((s) => s.total));
}

/** US cents: the prices of the shipments `paid`. */
export function chargedCents(sessions: readonly CheckoutSession[], paid: readonly number[]): number {
  const price = new Map(sessions.flatMap((s) => s.shipments.map((p) => [p.id, p.cents] as const)));
  return sumCents(paid.map((id) => price.get(id) ?? 0));
}

/** A run's payments (pay.ts), and what the --json document says besides. */
export interface RunSummary extends Omit<PayResult, "stop"> {
  status: RunStatus;
  sessions: readonly CheckoutSession[];
  /** Not Draft when the run began: paid before, skipped. */
  skipped: readonly SkippedShipment[];
  /** The command that finishes the job, when something is left to pay. */
  rerun?: string;
}

/** A session in the --json documents: each shipment's price by id, and the total (US cents). */
function sessionJson(s: CheckoutSession) {
  return { shipments: Object.fromEntries(s.shipments.map((p) => [String(p.id), p.cents])), total: s.total };
}

/** The --json document: `{sessions, total, paid, unpaid, status}` plus what a script needs to finish the job. */
export function jsonDocument(summary: RunSummary) {
  return {
    status: summary.status,
    sessions: summary.sessions.map((s) => ({ ...sessionJson(s), outcome: s.outcome })),
    total: totalOf(summary.sessions),
    /** US cents charged by this run (the prices of the shipments now known to be paid). */
    charged: chargedCents(summary.sessions, summary.paid),
    paid: [...summary.paid],
    unpaid: [...summary.unpaid],
    unknown: [...summary.unknown],
    /** ISO time after which a rerun settles `unknown` at once (before it, a rerun waits, or with --no-wait stops). */
    settle_at: summary.unknown.length > 0 && summary.settleAt ? summary.settleAt.toISOString() : null,
    already_paid: summary.skipped.map((s) => s.id),
    rerun: summary.rerun ?? null,
  };
}

/**
 * The exact command that finishes the job, repeating the input the user gave: `--from FILE` when the ids came from a
 * file (the rerun reads it again and skips what is paid), else the ids `left` to pay in the order given (stdin
 * cannot be replayed). Safe to run as often as needed: checkout settles payments still in flight first, then reads
 * every shipment and skips those already paid, so it never charges twice.
 */
export function rerunCommand(
  plan: Pick<CheckoutPlan, "ids" | "from" | "yes" | "maxTotalCents">,
  left: readonly number[],
  globals: Pick<GlobalOptions, "profile" | "baseUrl">,
): string {
  const order = new Map(plan.ids.map((id, i) => [id, i]));
  const ids = [...left].sort((a, b) => order.get(a)! - order.get(b)!).map(String);
  const input = plan.from !== undefined && plan.from !== "-" ? ["--from", shellQuote(plan.from)] : ids;
  const words = ["shipctl", "checkout", ...input, ...serviceFlags(globals)];
  if (plan.maxTotalCents !== undefined) words.push("--max-total", (plan.maxTotalCents / 100).toFixed(2));
  if (plan.yes) words.push("--yes");
  // Never --no-wait: the command is for after the settle time, and run sooner it should wait rather than stop again.
  return words.join(" ");
}

/** How many ids or row numbers a note lists before "and N more". */
const SHOWN = 5;

/** `1`, `1 and 2`, `1, 2, 3, 4, 5 and 49 more`: a note stays one line however long the batch. */
export function firstFew(items: readonly string[]): string {
  if (items.length <= SHOWN) return items.length === 1 ? items[0]! : `${items.slice(0, -1).join(", ")} and ${items.at(-1)!}`;
  return `${items.slice(0, SHOWN).join(", ")} and ${items.length - SHOWN} more`;
}

/**
 * One line for the shipments a run leaves out because they are no longer Drafts (`what`: "skipped", "not priced"):
 * a paid batch run again says so once, with the count and the first ids, not once per shipment.
 */
export function skippedNote(skipped: readonly SkippedShipment[], what: string, why?: string): string {
  const status = [...new Set([...skipped].sort((a, b) => a.status - b.status).map((s) => shipmentStatusName(s.status)))].join(" or ");
  const reason = why ? ` (${why})` : "";
  if (skipped.length === 1) return `shipment ${skipped[0]!.id} is already ${status}${reason}: ${what}`;
  return `${skipped.length} shipments are already ${status}${reason}: ${what}: ${firstFew(skipped.map((s) => String(s.id)))}`;
}

/** The `checkout --quote --json` document: the prices as a checkout would show them, and nothing paid. */
export function quoteDocument(quote: { status: "quoted" | "nothing-to-pay" | "over-max-total"; sessions: readonly CheckoutSession[]; skipped: readonly SkippedShipment[] }) {
  return {
    status: quote.status,
    sessions: quote.sessions.map(sessionJson),
    total: totalOf(quote.sessions),
    already_paid: quote.skipped.map((s) => s.id),
  };
}
