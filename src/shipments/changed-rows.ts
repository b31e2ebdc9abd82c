// A row of `shipment create --csv` edited since it was created (issue 25): never a second shipment unasked. The
// input's record keeps, for every row it created, what the row held then (its print: the shipment's own fields sent,
// each side's identity, its place in the file). On a rerun a row is recognised as changed
// - by its key, when the record knows it and the row now differs from its print (a `reference`, or a results file's
//   carried key, names the row whatever its content);
// - without a reference, by its place: a row the record does not know, standing where a row created earlier stood
//   whose content is gone from the file, while every other known row is still where it was created.
// Rows the record does not know are otherwise new and created, unless a created row's content is gone from the file
// and cannot be placed (rows inserted or reordered as well as edited, a record older than the prints): then no new
// row can be told from an edited one, and none is created. A missing shipment is one command away (--force-new); a
// second one is a phone call to a carrier.
import { ADDRESS_SIDES, SHIPMENT_FIELDS, addressKey, shipmentOwn, type Shipment, type ShipmentOwn } from "../contract/index.js";
import { normaliseHeader } from "../csv/headers.js";
import { ORIGIN_KEY } from "../csv/origin-columns.js";
import { sideIdColumn } from "../csv/columns.js";
import { addressHash, type Created } from "../ledger/entry.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import type { MarkedLine } from "../csv/results-csv.js";
import type { ChangedField } from "../batch/outcomes.js";

/** What the record keeps of a created row (entry.ts, Created). */
export interface RowPrint {
  sent: ShipmentOwn;
  sides: string[];
  file_row?: number;
}

/** Each side as the row gives it: a stored address's id ("#12"), or the hash of the inline address. */
function sidesOf(p: Shipment): string[] {
  return ADDRESS_SIDES.map((side) => {
    const id = p[`${side}_address_id`];
    if (id !== undefined) return `#${id}`;
    const inline = p[`${side}_address`];
    return inline ? addressHash(addressKey(inline)) : "";
  });
}

/** A row's print, from its payload as read from the file (before any address revision). */
export function printOf(payload: Shipment, fileRow: number | undefined): RowPrint {
  return { sent: shipmentOwn(payload), sides: sidesOf(payload), ...(fileRow === undefined ? {} : { file_row: fileRow }) };
}

/** What a row changes since its print was recorded; undefined when the record kept no print (an older ledger). */
function changesSince(before: Created, now: Shipment): ChangedField[] | undefined {
  if (before.sides === undefined || before.sent === undefined) return undefined;
  const sent = before.sent as Partial<ShipmentOwn>;
  const out: ChangedField[] = [];
  for (const f of SHIPMENT_FIELDS) if (sent[f] !== now[f]) out.push({ field: f, column: f, from: sent[f] ?? null, to: now[f] ?? null });
  const sides = sidesOf(now);
  ADDRESS_SIDES.forEach((side, i) => {
    const [was, is] = [before.sides![i] ?? "", sides[i]!];
    if (was === is) return;
    const id = (s: string) => (s.startsWith("#") ? Number(s.slice(1)) : null);
    out.push({ field: `${side}_address`, column: id(is) !== null ? sideIdColumn(side) : `${side} address`, from: id(was), to: id(is) });
  });
  return out;
}

/** "value 850 → 875, destination address changed". */
export function changesText(changes: readonly ChangedField[]): string {
  return changes
    .map((c) => {
      if (c.field.endsWith("_address") && (c.from === null || c.to === null)) return `${c.field.replace("_", " ")} changed`;
      return `${c.field.replace("_", " ")} ${String(c.from)} → ${String(c.to)}`;
    })
    .join(", ");
}

/** What a rerun makes of a row the record knows as created, or does not know. */
export type ChangedVerdict =
  /** Created earlier as shipment `id`; the row holds `changes` since. */
  | { kind: "changed"; id: number; changes: ChangedField[] }
  /** Not known, and perhaps an edit of a created row gone from the file: not created. */
  | { kind: "unsure"; gone: string }
  /** Not known, and its reference is a created row's, gone from the file, with leading zeros dropped or added. */
  | { kind: "unsure"; zeros: { reference: string; now: string; row?: number; id: number } }
  /** Not known, and the results file run as input marks it unsure, with these words (its error cell; "" for none). */
  | { kind: "unsure"; said: string }
  /**
   * Not known, and the results file run as input names shipment `id`, created by this input, in the row's line, and
   * the row holds again what was created: that shipment, nothing to do.
   */
  | { kind: "done"; id: number };

interface Candidate {
  row: number;
  key: string;
  payload: Shipment;
}

export class ChangedRows {
  /** Keys the record holds as created, with the row each is on now. */
  private readonly present = new Map<string, number>();
  private readonly candidates: Candidate[] = [];
  /** Rows the record does not know whose reference is digits: perhaps a created row's, its leading zeros dropped. */
  private readonly digits: Array<{ key: string; reference: string }> = [];
  private readonly verdicts = new Map<string, ChangedVerdict>();
  private byId: Map<string, Created> | undefined;

  /**
   * `marked`: the lines of a results file run as input whose carried key the record does not know, and that mark
   * their row unsure or changed or name a shipment in the id column (results-csv.ts, markedLines). Such a key is its
   * content's, yet the row is no new one: the run that wrote the line found it an edit of the shipment in its id cell
   * (changed, placed in the original; whatever its status cell says since: skipped once edited back, failed when its
   * update failed, or blanked), or could not tell it from one (unsure), and a results file's places are not the
   * original's, so nothing there can tell more.
   */
  constructor(
    private readonly ledger: InputLedger,
    private readonly marked: ReadonlyMap<string, MarkedLine> = new Map(),
  ) {}

  /** Each valid row of the first pass. */
  see(row: number, key: string, payload: Shipment, reference: string | undefined): void {
    if (!this.ledger.hasRows) return;
    const state = this.ledger.row(key);
    const marked = state === undefined ? this.marked.get(key) : undefined;
    const said = marked === undefined ? undefined : this.markedVerdict(marked, payload);
    if (state?.state === "created") {
      this.present.set(key, row);
      const changes = changesSince(state, payload);
      if (changes !== undefined && changes.length > 0) this.verdicts.set(key, { kind: "changed", id: state.id, changes });
    } else if (said !== undefined) {
      this.verdicts.set(key, said);
    } else if (state === undefined && reference === undefined) {
      this.candidates.push({ row, key, payload });
    } else if (state === undefined && /^\d+$/.test(reference!)) {
      this.digits.push({ key, reference: reference! });
    }
  }

  /**
   * A row whose results file line names in its id cell a shipment this input created is that shipment (an id cell
   * edited to another is no row of it), whatever its status cell says: changed if it differs from what was created,
   * else done. Any other row marked changed or unsure stays unsure; the rest are left to the other checks.
   */
  private markedVerdict(line: MarkedLine, payload: Shipment): ChangedVerdict | undefined {
    const earlier = line.status !== "unsure" && line.id !== "" ? this.createdById().get(line.id) : undefined;
    if (earlier === undefined) {
      if (line.status !== "unsure" && line.status !== "changed") return undefined;
      return { kind: "unsure", said: line.status === "unsure" ? line.error : "" };
    }
    const changes = changesSince(earlier, payload);
    if (changes !== undefined && changes.length === 0) return { kind: "done", id: earlier.id };
    return { kind: "changed", id: earlier.id, changes: changes ?? [] };
  }

  /** The record's created rows by shipment id (the latest of an id), read once. */
  private createdById(): Map<string, Created> {
    if (this.byId === undefined) {
      this.byId = new Map();
      for (const [, s] of this.ledger.entries()) if (s.state === "created") this.byId.set(String(s.id), s);
    }
    return this.byId;
  }

  /**
   * After the first pass: places the rows the record does not know. `header`: the file's, whose carried keys (a
   * results or errors file) say the rows' places are not the original's, so no row is placed by them.
   */
  settle(header: readonly string[]): void {
    this.settleDigits();
    // A results or errors file holds some of its original's rows, at places of its own: its rows the record does not
    // know are new (only a carried key or a reference recognises a row there).
    if (this.candidates.length === 0 || !ChangedRows.placed(header)) {
      this.candidates.length = 0;
      return;
    }
    const created = (key: string) => this.ledger.row(key) as Created;
    const ids = new Set([...this.present.keys()].map((k) => created(k).id));
    let moved = false;
    const held = new Set<number>();
    for (const [key, row] of this.present) {
      const at = created(key).file_row;
      if (at === row) held.add(row);
      else if (at !== undefined) moved = true;
    }
    // Created rows whose content is gone from the file, by the place they were created at (the latest there).
    const gone = new Map<number, Created>();
    const unplaced: Created[] = [];
    for (const [key, s] of this.ledger.entries()) {
      if (s.state !== "created" || this.present.has(key) || key.startsWith("ref:") || ids.has(s.id)) continue;
      if (s.file_row === undefined) unplaced.push(s);
      else if (!held.has(s.file_row)) gone.set(s.file_row, s);
    }
    for (const c of this.candidates) {
      const earlier = moved ? undefined : gone.get(c.row);
      if (earlier === undefined) continue;
      gone.delete(c.row);
      this.verdicts.set(c.key, { kind: "changed", id: earlier.id, changes: changesSince(earlier, c.payload) ?? [] });
    }
    const left = [...gone.values(), ...unplaced];
    if (left.length > 0) {
      const named = left.slice(0, 3).map((s) => (s.file_row !== undefined ? `row ${s.file_row} (shipment ${s.id})` : `shipment ${s.id}`));
      const gone = `${named.join(", ")}${left.length > 3 ? ` and ${left.length - 3} more` : ""}`;
      for (const c of this.candidates) if (!this.verdicts.has(c.key)) this.verdicts.set(c.key, { kind: "unsure", gone });
    }
    this.candidates.length = 0;
  }

  /**
   * A spreadsheet reads a reference of digits as a number: 007 is saved again as 7. A row whose reference the record
   * does not know, while a created row's reference is the same number and is gone from the file, is that row as likely
   * as a new one: not created.
   */
  private settleDigits(): void {
    if (this.digits.length === 0) return;
    const number = (reference: string) => reference.replace(/^0+(?=\d)/, "");
    // The created rows gone from the file whose reference is digits, by its number: one pass over the record, not one
    // per new row (5,000 rows added to a sheet of 5,000 created would otherwise be 25 million steps).
    const gone = new Map<string, { reference: string; created: Created }>();
    for (const [key, s] of this.ledger.entries()) {
      const was = key.slice("ref:".length);
      if (s.state !== "created" || !key.startsWith("ref:") || this.present.has(key) || !/^\d+$/.test(was)) continue;
      if (!gone.has(number(was))) gone.set(number(was), { reference: was, created: s });
    }
    for (const d of this.digits) {
      const match = gone.get(number(d.reference));
      if (match === undefined) continue;
      const { reference, created } = match;
      this.verdicts.set(d.key, { kind: "unsure", zeros: { reference, now: d.reference, id: created.id, ...(created.file_row === undefined ? {} : { row: created.file_row }) } });
    }
    this.digits.length = 0;
  }

  of(key: string): ChangedVerdict | undefined {
    return this.verdicts.get(key);
  }

  /**
   * As of(), for a row the pass did not know as created but whose entry it took as done once every row was read:
   * another machine's create of it in a team's shared ledger (copy-guard.ts). Edited since, it is changed on this
   * machine as on the one that created it, not reported as created as it is now.
   */
  ofTaken(key: string, payload: Shipment): ChangedVerdict | undefined {
    const known = this.verdicts.get(key);
    const state = this.ledger.row(key);
    if (known !== undefined || this.present.has(key) || state?.state !== "created") return known;
    const changes = changesSince(state, payload);
    if (changes === undefined || changes.length === 0) return undefined;
    const verdict: ChangedVerdict = { kind: "changed", id: state.id, changes };
    this.verdicts.set(key, verdict);
    return verdict;
  }

  /** Whether a row's print is kept: not for a results or errors file, whose rows are the original's fixed or edited. */
  static placed(header: readonly string[]): boolean {
    return !header.map(normaliseHeader).includes(ORIGIN_KEY);
  }
}

/** Why a changed row was left as it is, and what each flag does about it. */
export function changedText(row: number, v: Extract<ChangedVerdict, { kind: "changed" }>): string {
  const what = v.changes.length > 0 ? changesText(v.changes) : "its content changed";
  return `row ${row} was created as shipment ${v.id}; since then ${what}. Left as it is: --update-changed updates shipment ${v.id}, --force-new creates a new shipment`;
}

export function unsureText(v: Extract<ChangedVerdict, { kind: "unsure" }>): string {
  if ("said" in v) {
    if (v.said !== "") return v.said;
    return "not created: the results file says this row may be an edit of a shipment created earlier. If it is new, run again with --force-new; if it is an edit, change that shipment with `shipctl shipment update`";
  }
  if ("zeros" in v) {
    const { reference, now, row, id } = v.zeros;
    return (
      `not created: reference ${reference}${row === undefined ? "" : ` (row ${row})`} was created as shipment ${id} and is gone from the file; ${now} is the same number ` +
      `(a spreadsheet drops a reference's leading zeros unless its column is formatted as Text), so this row may be it. ` +
      `If it is, write its reference as ${reference} again (the column formatted as Text); if it is new, run again with --force-new`
    );
  }
  return (
    `not created: rows created earlier are gone from the file (${v.gone}) and rows were inserted, moved or edited, so this row may be one of them edited. ` +
    "If it is new, run again with --force-new; if it is an edit, change that shipment with `shipctl shipment update`"
  );
}
