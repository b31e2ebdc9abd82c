// How `address verify --csv`, `address add --csv` and `address update --csv` read a file: one address a row, in the
// Address columns (name, email, phone, line_1, line_2, city, region, post_code, country) and an optional reference;
// for updates, the id of the stored address it replaces (column id or address_id).
import type { Address, Tables } from "../contract/index.js";
import { buildAddress } from "../csv/address-row.js";
import { cellsOf, extraCellsProblem, inColumnTerms } from "../csv/cells.js";
import { ADDRESS_FIELDS, MAX_REFERENCE_LENGTH, charLength, type AddressField } from "../contract/index.js";
import { layoutFor } from "../csv/columns.js";
import { readId } from "../csv/numbers.js";
import type { Mapping } from "../csv/table-cells.js";
import type { ScanSpec, ValidBase } from "../csv/scan.js";
import { recordsOf, type CsvRecords } from "../batch/open-csv-ledger.js";
import { shortHash } from "../ledger/entry.js";
import type { CellProblem, Change } from "../csv/row-types.js";
import { foldedText } from "../csv/text-cells.js";

export interface ValidAddressRow extends ValidBase {
  /** The stored address this row replaces (updates only). */
  id?: number;
  payload: Address;
  /** The address's identity among the file's distinct addresses (verified once each). */
  addressKey: string;
  changes: Change[];
  mappings: Mapping[];
}

export function addressScanSpec(tables: Tables, options: { keys: boolean; kind: "address-verify" | "address-add" | "address-update" }): ScanSpec<ValidAddressRow> {
  return {
    layout: layoutFor(options.kind),
    tables,
    keys: options.keys,
    makeBuilder: (match, headerLength, ctx) => (csv) => {
      const cells = cellsOf(csv.cells, match);
      const problems: CellProblem[] = [];
      const extra = extraCellsProblem(csv.cells, headerLength);
      if (extra) problems.push(extra);
      const changes: Change[] = [];
      const reference = foldedText(cells.get("reference"), "reference", changes) || undefined;
      if (reference !== undefined && charLength(reference) > MAX_REFERENCE_LENGTH) {
        problems.push({ column: "reference", reason: `reference may be at most ${MAX_REFERENCE_LENGTH} characters` });
      }
      let id: number | undefined;
      if (options.kind === "address-update") {
        // Named as the file names it: `list addresses --format csv` writes address_id.
        const idColumn = match.written?.get("id") ?? "id";
        const raw = cells.get("id");
        const read = readId(raw, idColumn);
        const empty = `${idColumn} is empty: give the id of the stored address this row replaces`;
        if (raw.trim() === "") problems.push({ column: idColumn, reason: empty });
        else if (read.ok) id = read.value;
        else problems.push({ column: idColumn, reason: read.reason });
      }
      const label = cells.get("name").trim();
      const built = buildAddress(Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, cells.get(f)])) as Record<AddressField, string>, ctx);
      if (!built.ok) for (const p of built.problems) problems.push({ column: p.field, reason: inColumnTerms(p.reason, p.field, p.field) });
      if (problems.length > 0 || !built.ok) return { ok: false, row: csv.row, reference, label, problems };
      return { ok: true, row: csv.row, reference, label, id, payload: built.address, addressKey: built.key, changes: [...changes, ...built.changes], mappings: built.mappings };
    },
    content: addressContent,
  };
}

/** What identifies a row's content for the ledger; an update's target is part of it (the same address written over
 * two stored ones is two rows, and an edited row is different content). */
export function addressContent(row: ValidAddressRow): string {
  return row.id === undefined ? row.addressKey : `${row.id}\u0000${row.addressKey}`;
}

/** What a CSV run's ledger records of its addresses, each with the name the file gives it (batch/open-csv-ledger.ts). */
export function addressRecords(kind: "address-add" | "address-update"): CsvRecords {
  return (run, ledger) =>
    recordsOf(run, ledger, addressScanSpec(run.tables, { keys: true, kind }), (row, state) =>
      // An update row edited since it was sent names a name the service does not hold yet: existence only.
      state.state === "updated" && state.hash !== shortHash(addressContent(row)) ? undefined : row.payload.name,
    );
}
