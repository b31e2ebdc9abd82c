// One CSV row to one Shipment payload, or every reason it cannot be sent. Values are normalised visibly (changes
// are returned), names go through the profile's tables (mappings are returned), and the payload is finally checked
// with the contract's Shipment schema, its issues reported under the CSV column they come from.
import { ADDRESS_SIDES, Shipment, shipmentIdentity, type Address, type AddressSide } from "../contract/index.js";
import { addressHash } from "../ledger/entry.js";
import { cachedAddressBuilder } from "../csv/address-row.js";
import { cellAt, columnIndexes, extraCellsProblem, inColumnTerms } from "../csv/cells.js";
import { ADDRESS_FIELDS, MAX_REFERENCE_LENGTH, SHIPMENT_BOUNDS, charLength, type AddressField } from "../contract/index.js";
import { columnForPath, sideColumn, sideIdColumn } from "../csv/columns.js";
import type { HeaderMatch } from "../csv/headers.js";
import { DecimalMarks, readId, readWholeNumber, type NumberOptions, type Reading } from "../csv/numbers.js";
import type { CsvRow } from "../csv/csv-reader.js";
import { readService, type Mapping } from "../csv/table-cells.js";
import { foldedText } from "../csv/text-cells.js";
import type { CellProblem, Change, InvalidRow, RowBase, RowContext } from "../csv/row-types.js";
import { sameAddressProblem } from "../input/same-sides.js";

/** A side given inline, for a CSV row or a JSON item alike. */
export interface InlineAddress {
  side: AddressSide;
  /** The normalised address as canonical JSON: equal addresses, equal keys (verified once, recorded by it). */
  key: string;
  address: Address;
}

export interface ValidShipmentRow extends RowBase {
  ok: true;
  /** The shipment id, for updates. */
  id?: number;
  payload: Shipment;
  addresses: InlineAddress[];
  changes: Change[];
  mappings: Mapping[];
}


export type ShipmentRow = ValidShipmentRow | InvalidRow;


/** Builds rows of one file; keeps the address cache between rows. */
export function shipmentRowBuilder(match: HeaderMatch, headerLength: number, ctx: RowContext, options: { update: boolean }) {

  // A file names a handful of services over and over: read each spelling once.
  const services = new Map<string, ReturnType<typeof readService>>();
  const serviceOf = (text: string) => {
    let reading = services.get(text);
    if (reading === undefined) {
      reading = readService(text, ctx.tables, "service");
      if (services.size < 200) services.set(text, reading);
    }
    return reading;
  };
  // Where each column is in this file, looked up once rather than by name on every row (-1: not in the file).
  const at = columnIndexes(match);
  const sides = ADDRESS_SIDES.map((side): SideColumns => {
    const idColumn = sideIdColumn(side);
    const columnOf = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, sideColumn(side, f)])) as Record<AddressField, string>;
    return {
      side,
      address: cachedAddressBuilder(ctx),
      idColumn,
      idIndex: at(idColumn),
      indexes: ADDRESS_FIELDS.map((f) => at(columnOf[f])),
      idKey: `${side}_address_id`,
      addressKey: `${side}_address`,
      columnOf,
    };
  });
  // A results file of `shipment create --csv` names the id column shipment_id: messages use the file's own name.
  const idColumn = match.written?.get("id") ?? "id";
  const I = { id: at("id"), reference: at("reference"), title: at("title"), value: at("value"), service: at("service") };
  // Each number column keeps the decimal mark its unambiguous cells show, and its range settles "1.200".
  const numberOptions = (column: keyof typeof SHIPMENT_BOUNDS, unit: "dollars" | "inches"): NumberOptions => ({
    column,
    unit,
    commaDecimal: ctx.commaDecimal,
    range: SHIPMENT_BOUNDS[column],
    marks: new DecimalMarks(),
  });
  const valueOptions = numberOptions("value", "dollars");
  const dims = (["length", "height", "depth"] as const).map((dim) => ({ dim, index: at(dim), options: numberOptions(dim, "inches") }));

  return function build(csv: CsvRow): ShipmentRow {
    const values = csv.cells;
    const problems: CellProblem[] = [];
    const changes: Change[] = [];
    const mappings: Mapping[] = [];
    const payload: Record<string, unknown> = {};
    const addresses: InlineAddress[] = [];
    const extra = extraCellsProblem(values, headerLength);
    if (extra) problems.push(extra);

    const take = <T>(column: string, raw: string, reading: Reading<T>): T | undefined => {
      if (!reading.ok) {
        problems.push({ column, reason: reading.reason });
        return undefined;
      }
      if (reading.changed) changes.push({ column, from: raw.trim(), to: String(reading.value), kind: reading.separatorSettled ? "separator" : "number" });
      return reading.value;
    };

    let id: number | undefined;
    if (options.update) {
      const raw = cellAt(values, I.id);
      if (raw.trim() === "") problems.push({ column: idColumn, reason: noShipmentReason(idColumn) });
      else id = take(idColumn, raw, readId(raw, idColumn));
    }
    const reference = foldedText(cellAt(values, I.reference), "reference", changes) || undefined;
    if (reference !== undefined && charLength(reference) > MAX_REFERENCE_LENGTH) {
      problems.push({ column: "reference", reason: `reference may be at most ${MAX_REFERENCE_LENGTH} characters` });
    }
    const title = foldedText(cellAt(values, I.title), "title", changes);
    payload.title = title;
    const rawValue = cellAt(values, I.value);
    const value = take("value", rawValue, readWholeNumber(rawValue, valueOptions));
    if (value !== undefined) payload.value = value;
    for (const { dim, index, options } of dims) {
      const raw = cellAt(values, index);
      const n = take(dim, raw, readWholeNumber(raw, options));
      if (n !== undefined) payload[dim] = n;
    }
    // A service name is reported as a mapping (name -> integer), not as a change.
    const service = serviceOf(cellAt(values, I.service));
    if (!service.ok) problems.push({ column: "service", reason: service.reason });
    else {
      payload.service = service.value.id;
      if (service.value.mapping) mappings.push(service.value.mapping);
    }

    // The sides with a problem of their own (their columns' issues are not reported again below).
    const badSides: AddressSide[] = [];
    const sink: SideSink = { problems, changes, mappings, payload, addresses };
    for (const side of sides) {
      const before = problems.length;
      readSide(side, values, sink);
      if (problems.length > before) badSides.push(side.side);
    }

    // The contract's Shipment schema has the last word, with each inline address standing in as a placeholder id:
    // the addresses were checked with the same Address schema when they were built (once per distinct address); the
    // one-of rule per side is still checked here.
    const checked = Shipment.safeParse(withAddressPlaceholders(payload));
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const column = columnForPath(issue.path);
        const side = ADDRESS_SIDES.find((s) => column.startsWith(`${s}_`));
        if (problems.some((p) => p.column === column) || (side && badSides.includes(side))) continue;
        problems.push({ column, reason: inColumnTerms(issue.message, String(issue.path.at(-1) ?? ""), column) });
      }
    }
    // A new shipment may not go from an address to itself. An update leaves a stored shipment's sides as they are:
    // refusing them would make an export of such a shipment impossible to update.
    const same = problems.length === 0 && !options.update ? sameAddressProblem(payload as Shipment, "csv") : undefined;
    if (same) problems.push({ column: same.field === "destination_address" ? "row" : same.field, reason: same.message });
    if (problems.length > 0 || !checked.success) return { ok: false, row: csv.row, reference, label: title, problems };
    return { ok: true, row: csv.row, reference, label: title, id, payload: payload as Shipment, addresses, changes, mappings };
  };
}

const PLACEHOLDER_ID = 1;

/** An update row without an id: in a results file, a row whose shipment was never created (it failed or was skipped). */
function noShipmentReason(idColumn: string): string {
  return (
    `${idColumn} is empty: this row has no shipment to update (in a results file, it was never created); ` +
    "create it with `shipctl shipment create --csv`, or delete the row"
  );
}

function withAddressPlaceholders(p: Record<string, unknown>): Record<string, unknown> {
  // readSide never puts both an id and an inline address on one side. Built as a literal: a copy with `delete`
  // would turn every row's object into a slow dictionary.
  const out: Record<string, unknown> = { title: p.title, value: p.value, length: p.length, height: p.height, depth: p.depth, service: p.service };
  for (const side of ADDRESS_SIDES) {
    const id = p[`${side}_address_id`];
    if (id !== undefined) out[`${side}_address_id`] = id;
    else if (p[`${side}_address`] !== undefined) out[`${side}_address_id`] = PLACEHOLDER_ID;
  }
  return out;
}

interface SideSink {
  problems: CellProblem[];
  changes: Change[];
  mappings: Mapping[];
  payload: Record<string, unknown>;
  addresses: InlineAddress[];
}

interface SideColumns {
  side: AddressSide;
  /** This side's address builder: its cache remembers the side's previous row. */
  address: ReturnType<typeof cachedAddressBuilder>;
  idColumn: string;
  /** -1: the file has no id column for this side. */
  idIndex: number;
  /** Indexes of the inline columns, in ADDRESS_FIELDS order. */
  indexes: number[];
  /** The payload's keys for this side, and each field's column: made once, not for every row. */
  idKey: `${AddressSide}_address_id`;
  addressKey: `${AddressSide}_address`;
  columnOf: Record<AddressField, string>;
}

function readSide(columns: SideColumns, row: readonly string[], sink: SideSink): void {
  const { side, idColumn } = columns;
  const idText = cellAt(row, columns.idIndex).trim();
  const values = columns.indexes.map((i) => cellAt(row, i));
  const anyInline = values.some((value) => value.trim() !== "");
  if (idText !== "" && anyInline) {
    sink.problems.push({ column: idColumn, reason: `give either ${idColumn} or the ${side} address columns, not both` });
    return;
  }
  if (idText !== "") {
    const id = readId(idText, idColumn);
    if (id.ok) sink.payload[columns.idKey] = id.value;
    else sink.problems.push({ column: idColumn, reason: id.reason });
    return;
  }
  if (!anyInline) {
    const hasIdColumn = columns.idIndex >= 0;
    const how = hasIdColumn ? `${idColumn} or the ${side} address columns` : `the ${side} address columns`;
    sink.problems.push({ column: hasIdColumn ? idColumn : sideColumn(side, "name"), reason: `the ${side} address is missing: fill ${how}` });
    return;
  }
  const built = columns.address(values);
  if (!built.ok) {
    for (const p of built.problems) {
      const column = sideColumn(side, p.field);
      sink.problems.push({ column, reason: inColumnTerms(p.reason, p.field, column) });
    }
    return;
  }
  sink.payload[columns.addressKey] = built.address;
  sink.addresses.push({ side, key: built.key, address: built.address });
  for (const c of built.changes) sink.changes.push({ ...c, column: columns.columnOf[c.column] });
  for (const m of built.mappings) sink.mappings.push(m);
}

/** What identifies a row's content for the ledger (contract/fields.ts): an edited row is different content. */
export function shipmentContent(row: ValidShipmentRow): string {
  return shipmentIdentity(row.payload, addressHash, { id: row.id });
}
