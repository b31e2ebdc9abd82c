// A CSV dry run's report. The dry run decides every row as the run would (the same ledger, copy guard, settlement
// and address verdicts, read-only) and records its prediction as the run's outcomes: a row already done, in doubt,
// refused or invalid gets the outcome the run would give it, and a row the run would send is "created" (or
// "updated") before the fact, with a line saying what its request carries. So the counts and the exit code come from
// the same rules as a real run's (results.ts), and people get the same table a real run prints. Scripts get one
// document:
//   {"dry_run": true, "would_send": [...], "already_created": [...], "matched": [...], "unknown": [...],
//    "blocked": [...], "invalid": [...], "not_sent": [...], "counts": {...}, ...}
// `matched`: rows the run would not send because a recent shipment another machine created holds them (shipments/look/).
// (an update's document also has "unchanged": [...] and its "plan": batch/update-plan.ts; a CSV create's has "changed":
// rows edited since they were created, or not matched with certainty, that the run would leave as they are:
// shipments/changed-rows.ts; a changed row --update-changed would update is in "would_send", its body with its id).
// Every row of the file is in exactly one list. With --json, the rows to send are written as they are decided (a
// file's rows can be 100,000) and only counted, not kept as outcomes, so a first dry run's memory stays flat as the
// file grows; the table needs every row in memory, as a real run's results table does.
import type { Shipment } from "../contract/index.js";
import type { Change } from "../csv/row-types.js";
import type { NotesJson } from "../csv/value-notes.js";
import type { Deps } from "../deps.js";
import { ExitCode, exitErrorJson, type ErrorJson } from "../errors.js";
import { textBuffer, type TextBuffer } from "../output/text-buffer.js";
import type { Outcome, Outcomes } from "./outcomes.js";
import { exitCodeOf, renderResultsTable, type Position, type ResultWords } from "./results.js";

/** A row the run would send, and its request body. */
export interface WouldSend {
  row: number;
  label: string;
  reference?: string;
  body: Record<string, unknown>;
  changes: readonly Change[];
  /** What the table says the request does, when not the body's one line (an update of a changed row). */
  says?: string;
}

/** What the request body is of: the JSON document's key for it. */
export type Sends = "shipment" | "address";

/** Where a predicted outcome goes: a dry run's list. */
export type DryRunList = "would_send" | "already" | "matched" | "unchanged" | "changed" | "unknown" | "blocked" | "invalid" | "not_sent";

/**
 * How many rows go to each list, and in all. `already`: already_created, or already_updated for `shipment update`;
 * `unchanged`: rows of an update whose records already hold them; `changed`: rows of a create edited since created
 * (or not matched with certainty) that the run would leave as they are.
 */
export type DryRunCounts = Record<"rows" | DryRunList, number>;

export class WouldSendRows {
  /** Rows to send written to the document rather than held among the outcomes (--json). */
  elsewhere = 0;
  /** Rows to send as updates, each its own PATCH (a create's changed rows, --update-changed; an update's every row). */
  updates = 0;
  private readonly pending: TextBuffer | undefined;

  /**
   * `out`: stdout for --json, where the rows to send are written as they are decided; without it (the table) each is
   * an outcome with its one-line description. `position`: what the numbers are (spreadsheet rows, or items 1..N of
   * `shipment create` from flags or JSON).
   */
  constructor(
    out: ((text: string) => void) | undefined,
    readonly position: Position = "row",
  ) {
    this.pending = out && textBuffer(out);
  }

  /** Records a row the run would send: its body in the --json document, else its predicted outcome for the table. */
  add(outcomes: Outcomes, done: "created" | "updated", sends: Sends, item: WouldSend): void {
    if (done === "updated") this.updates++;
    if (!this.pending) {
      outcomes.set(item.row, { status: done, label: item.label, reference: item.reference, sends: item.says ?? describe(sends, item.body) });
      return;
    }
    this.pending.add(this.elsewhere === 0 ? '{"dry_run":true,"would_send":[\n' : ",\n");
    this.pending.add(JSON.stringify({ [this.position]: item.row, reference: item.reference ?? null, [sends]: item.body, ...(item.changes.length > 0 ? { changes: item.changes } : {}) }));
    this.elsewhere++;
  }

  /** Writes the rest of the --json document: `rest` gets the writer once the would_send list is closed. */
  finish(rest: (out: (text: string) => void) => void): void {
    if (!this.pending) return;
    this.pending.add(this.elsewhere === 0 ? '{"dry_run":true,"would_send":[]' : "\n]");
    rest((text) => this.pending!.add(text));
    this.pending.flush();
  }
}

export function listOf(o: Outcome, words: ResultWords): DryRunList {
  if (o.status === words.done || o.status === "updated") return "would_send";
  if (o.status === "changed" || o.status === "unsure") return "changed";
  if (o.status === "skipped") return "already";
  if (o.status === "matched") return "matched";
  if (o.status === "unchanged") return "unchanged";
  if (o.status === "unknown") return "unknown";
  if (o.status === "pending") return "not_sent";
  return o.invalid ? "invalid" : "blocked";
}

/** `toSend`: the rows to send that it holds apart from the outcomes (--json). */
export function dryRunCounts(outcomes: Outcomes, words: ResultWords, toSend?: WouldSendRows): DryRunCounts {
  const apart = toSend?.elsewhere ?? 0;
  const counts: DryRunCounts = { rows: outcomes.size + apart, would_send: apart, already: 0, matched: 0, unchanged: 0, changed: 0, unknown: 0, blocked: 0, invalid: 0, not_sent: 0 };
  for (const [, o] of outcomes.entries()) counts[listOf(o, words)]++;
  return counts;
}

/** The rest of the --json document after the rows to send (see WouldSendRows), a piece at a time. */
export function writeDryRunJson(
  outcomes: Outcomes,
  toSend: WouldSendRows,
  words: ResultWords,
  tail: { requests: number; notes?: NotesJson; ledger?: string; error?: ErrorJson; columns?: Record<string, string>; plan?: unknown[] },
): void {
  const position = toSend.position;
  const already = `already_${words.done}`;
  const key = (list: DryRunList) => (list === "already" ? already : list);
  // Only an update plans, so only its document has the list of rows unchanged (and their count).
  const updates = words.done === "updated";
  // Only a CSV create recognises rows edited since they were created.
  const editable = words.done === "created" && position === "row";
  const lists: DryRunList[] = ["already", "matched", ...(updates ? (["unchanged"] as const) : []), ...(editable ? (["changed"] as const) : []), "unknown", "blocked", "invalid", "not_sent"];
  const entries = outcomes.entries();
  const c = dryRunCounts(outcomes, words, toSend);
  toSend.finish((out) => {
    for (const list of lists) {
      out(`,${JSON.stringify(key(list))}:[`);
      let first = true;
      for (const item of entriesIn(entries, list, words, position)) {
        out(`${first ? "\n" : ",\n"}${JSON.stringify(item)}`);
        first = false;
      }
      out(first ? "]" : "\n]");
    }
    const counts = { [`${position}s`]: c.rows, would_send: c.would_send, [already]: c.already, matched: c.matched, ...(updates ? { unchanged: c.unchanged } : {}), ...(editable ? { changed: c.changed } : {}), unknown: c.unknown, blocked: c.blocked, invalid: c.invalid, not_sent: c.not_sent, requests: tail.requests };
    const rest = {
      counts,
      ...(tail.notes ? { changes: tail.notes.changes, mappings: tail.notes.mappings } : {}),
      ...(tail.ledger ? { ledger: tail.ledger } : {}),
      ...(tail.columns ? { columns: tail.columns } : {}),
      ...(tail.plan ? { plan: tail.plan } : {}),
      ...(tail.error ? { error: tail.error } : {}),
    };
    out(`,${JSON.stringify(rest).slice(1)}\n`);
  });
}

function* entriesIn(entries: ReadonlyArray<[number, Outcome]>, list: DryRunList, words: ResultWords, position: Position): Generator<Record<string, unknown>> {
  for (const [row, o] of entries) {
    if (listOf(o, words) !== list) continue;
    const who = { [position]: row, reference: o.reference ?? null, [words.labelHeader]: o.label };
    if (list === "already" || list === "unchanged") yield { ...who, [words.idKey]: o.id ?? null };
    else if (list === "matched") yield { ...who, [words.idKey]: o.id ?? null, reason: o.error ?? null };
    else if (list === "changed") yield { ...who, [words.idKey]: o.id ?? null, status: o.status, changes: o.changes ?? [], reason: o.error ?? null };
    else yield { ...who, reason: o.error ?? null, ...(o.problems ? { problems: o.problems } : {}) };
  }
}

/** The one line a table gives a row that would be sent: what its request carries besides the title or name. */
function describe(sends: Sends, body: Record<string, unknown>): string {
  if (sends === "address") return [body.line_1, [body.city, body.post_code].filter(present).join(" ")].filter(present).join(", ");
  const s = body as Partial<Shipment> & Record<string, unknown>;
  const parts: string[] = [];
  if (s.value !== undefined) parts.push(`$${s.value}`);
  if (s.length !== undefined || s.height !== undefined || s.depth !== undefined) parts.push(`${s.length ?? "?"}x${s.height ?? "?"}x${s.depth ?? "?"} in`);
  if (s.service !== undefined) parts.push(`service ${s.service}`);
  const from = side(s, "fulfillment");
  const to = side(s, "destination");
  if (from !== "" || to !== "") parts.push(`${from || "?"} -> ${to || "?"}`);
  return parts.join(", ");
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

function side(s: Record<string, unknown>, name: string): string {
  const id = s[`${name}_address_id`];
  if (id !== undefined) return `address ${String(id)}`;
  const a = s[`${name}_address`] as { name?: string; city?: string } | undefined;
  return a ? [a.name, a.city].filter(present).join(", ") : "";
}

/**
 * The end of a dry run: its table (the results table) or document on stdout, its summary on stderr. Returns the exit
 * code the run would have: the run's own rule (exitCodeOf) applied to these outcomes.
 */
export function reportDryRun(
  deps: Pick<Deps, "io" | "theme" | "globals">,
  outcomes: Outcomes,
  toSend: WouldSendRows,
  words: ResultWords,
  o: { perRequest: number; refused: boolean; notes?: NotesJson; ledger?: string; exitCode?: number; columns?: Record<string, string>; plan?: unknown[] },
): number {
  const counts = dryRunCounts(outcomes, words, toSend);
  const requests = Math.ceil((counts.would_send - toSend.updates) / o.perRequest) + toSend.updates;
  const position = toSend.position;
  const summary = dryRunSummary(counts, requests, words, o.refused, position);
  const code = o.exitCode ?? exitCodeOf(outcomes, words, toSend.elsewhere);
  if (deps.globals.json) {
    // The run's failure in the document, as a real run with this exit code would print it (README "Errors as JSON").
    const error = code === ExitCode.Ok ? undefined : exitErrorJson(code, o.refused ? undefined : summary);
    writeDryRunJson(outcomes, toSend, words, { requests, notes: o.notes, ledger: o.ledger, error, columns: o.columns, plan: o.plan });
  } else if (outcomes.size > 0 && !o.refused) {
    // Invalid input was already listed on stderr: as after a refused run, people need no table of it.
    deps.io.out(renderResultsTable(outcomes, words, { theme: deps.theme.out, width: deps.io.stdoutIsTTY ? deps.io.columns : undefined, position, dryRun: true }));
  }
  deps.io.alert(`${summary}\n`);
  return code;
}

/** The dry run's one line on stderr: what the run would send, and why it would send no more. */
export function dryRunSummary(c: DryRunCounts, requests: number, words: ResultWords, refused: boolean, position: Position = "row"): string {
  const rows = (n: number) => `${n} ${position}${n === 1 ? "" : "s"}`;
  if (refused) {
    return (
      `Dry run: the run would send nothing: ${rows(c.invalid)} ${c.invalid === 1 ? "is" : "are"} invalid (listed above). ` +
      `Fix ${c.invalid === 1 ? "it" : "them"}, or pass --skip-invalid to send the valid ${position}s (this dry run with --skip-invalid shows what it would send). Nothing was sent.`
    );
  }
  const parts: string[] = [];
  if (c.already > 0) parts.push(`${rows(c.already)} already ${words.done} by an earlier run`);
  if (c.matched > 0) parts.push(`${rows(c.matched)} would be skipped: ${c.matched === 1 ? "it matches" : "they match"} a recent shipment another machine created (named above)`);
  if (c.unchanged > 0) parts.push(`${c.unchanged} unchanged`);
  if (c.changed > 0) parts.push(`${rows(c.changed)} edited since created or not matched with certainty: left as ${c.changed === 1 ? "it is" : "they are"} (named above)`);
  if (c.unknown > 0) parts.push(`${c.unknown} unknown (an earlier request's answer was lost: not sent until it is settled)`);
  if (c.blocked > 0) parts.push(`${c.blocked} would fail their address check`);
  if (c.invalid > 0) parts.push(`${c.invalid} invalid (skipped)`);
  const head = c.would_send > 0 ? `${rows(c.would_send)} would be sent in ${requests} request${requests === 1 ? "" : "s"}` : "nothing to send";
  const rest = parts.length === 0 ? "" : `${c.would_send > 0 ? "; " : ": "}${parts.join(", ")}`;
  return `Dry run: ${head}${rest}. Nothing was sent.`;
}
