// One CSV row to one Shipment payload, or every reason it cannot be sent. Values are normalised visibly (changes
// are returned), names go through the profile's tables (mappings are returned), and the payload is finally checked
// with the contract's Shipment schema, its issues reported under the CSV column they come from.
import { ADDRESS_SIDES, Shipment, type Address, type AddressSide } from "../contract/index.js";
import { cachedAddressBuilder } from "./address-row.js";
import { cellsOf, extraCellsProblem, inColumnTerms, type Cells } from "./cells.js";
import { ADDRESS_FIELDS, columnForPath, sideColumn, sideIdColumn, type AddressField } from "./columns.js";
import type { Mapping } from "./enums.js";
import type { HeaderMatch } from "./headers.js";
import { readId, readWholeNumber, type Reading } from "./numbers.js";
import type { CsvRow } from "./reader.js";
import { readService } from "./enums.js";
import type { CellProblem, Change, InvalidRow, RowBase, RowContext } from "./types.js";

export interface InlineAddress {
  side: AddressSide;
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

export const MAX_REFERENCE_LENGTH = 100;

/** Builds rows of one file; keeps the address cache between rows. */
export function shipmentRowBuilder(match: HeaderMatch, headerLength: number, ctx: RowContext, options: { update: boolean }) {
  const address = cachedAddressBuilder(ctx);

  return function build(csv: CsvRow): ShipmentRow {
    const cells = cellsOf(csv.cells, match);
    const problems: CellProblem[] = [];
    const changes: Change[] = [];
    const mappings: Mapping[] = [];
    const payload: Record<string, unknown> = {};
    const addresses: InlineAddress[] = [];
    const extra = extraCellsProblem(csv.cells, headerLength);
    if (extra) problems.push(extra);

    const take = <T>(column: string, reading: Reading<T>, put: (value: T) => void) => {
      if (!reading.ok) return problems.push({ column, reason: reading.reason });
      if (reading.changed) changes.push({ column, from: cells.get(column).trim(), to: String(reading.value) });
      put(reading.value);
    };

    let id: number | undefined;
    if (options.update) take("id", readId(cells.get("id"), "id"), (v) => (id = v));
    const reference = cells.get("reference").trim() || undefined;
    if (reference !== undefined && reference.length > MAX_REFERENCE_LENGTH) {
      problems.push({ column: "reference", reason: `reference may be at most ${MAX_REFERENCE_LENGTH} characters` });
    }
    const title = cells.get("title").trim();
    payload.title = title;
    take("value", readWholeNumber(cells.get("value"), { column: "value", dollars: true, commaDecimal: ctx.commaDecimal }), (v) => (payload.value = v));
    for (const dim of ["length", "height", "depth"] as const) {
      take(dim, readWholeNumber(cells.get(dim), { column: dim, inches: true, commaDecimal: ctx.commaDecimal }), (v) => (payload[dim] = v));
    }
    // A service name is reported as a mapping (name -> integer), not as a change.
    const service = readService(cells.get("service"), ctx.tables, "service");
    if (!service.ok) problems.push({ column: "service", reason: service.reason });
    else {
      payload.service = service.value.id;
      if (service.value.mapping) mappings.push(service.value.mapping);
    }

    const badSides = new Set<AddressSide>();
    for (const side of ADDRESS_SIDES) {
      const before = problems.length;
      readSide(side, cells, address, { problems, changes, mappings, payload, addresses });
      if (problems.length > before) badSides.add(side);
    }

    const checked = Shipment.safeParse(payload);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const column = columnForPath(issue.path);
        const side = ADDRESS_SIDES.find((s) => column.startsWith(`${s}_`));
        if (problems.some((p) => p.column === column) || (side && badSides.has(side))) continue;
        problems.push({ column, reason: inColumnTerms(issue.message, String(issue.path.at(-1) ?? ""), column) });
      }
    }
    if (problems.length > 0 || !checked.success) return { ok: false, row: csv.row, reference, label: title, problems };
    return { ok: true, row: csv.row, reference, label: title, id, payload: checked.data, addresses, changes, mappings };
  };
}

interface SideSink {
  problems: CellProblem[];
  changes: Change[];
  mappings: Mapping[];
  payload: Record<string, unknown>;
  addresses: InlineAddress[];
}

function readSide(side: AddressSide, cells: Cells, address: ReturnType<typeof cachedAddressBuilder>, sink: SideSink): void {
  const idColumn = sideIdColumn(side);
  const idText = cells.get(idColumn).trim();
  const inline = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, cells.get(sideColumn(side, f))])) as Record<AddressField, string>;
  const anyInline = ADDRESS_FIELDS.some((f) => inline[f].trim() !== "");
  if (idText !== "" && anyInline) {
    sink.problems.push({ column: idColumn, reason: `give either ${idColumn} or the ${side} address columns, not both` });
    return;
  }
  if (idText !== "") {
    const id = readId(idText, idColumn);
    if (id.ok) sink.payload[`${side}_address_id`] = id.value;
    else sink.problems.push({ column: idColumn, reason: id.reason });
    return;
  }
  if (!anyInline) {
    const how = cells.has(idColumn) ? `${idColumn} or the ${side} address columns` : `the ${side} address columns`;
    sink.problems.push({ column: cells.has(idColumn) ? idColumn : sideColumn(side, "name"), reason: `the ${side} address is missing: fill ${how}` });
    return;
  }
  const built = address(inline);
  if (!built.ok) {
    for (const p of built.problems) {
      const column = sideColumn(side, p.field);
      sink.problems.push({ column, reason: inColumnTerms(p.reason, p.field, column) });
    }
    return;
  }
  sink.payload[`${side}_address`] = built.address;
  sink.addresses.push({ side, key: built.key, address: built.address });
  for (const c of built.changes) sink.changes.push({ ...c, column: sideColumn(side, c.column) });
  sink.mappings.push(...built.mappings);
}
