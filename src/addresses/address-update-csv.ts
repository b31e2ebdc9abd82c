// `shipctl address update --csv FILE`: every row carries the id of a stored address and all its fields (the service
// replaces the whole address), e.g. an edited `list addresses --format csv`. Each row is compared with its address as
// it is now (batch/update-plan.ts), and only the rows that change something go on: each of their distinct addresses
// verified once (unless --no-verify), then each row sent as its own PATCH, as `shipment update --csv` does
// (batch/patch-rows.ts).
import type { Deps } from "../deps.js";
import { addressContent, addressRecords, addressScanSpec } from "./address-spec.js";
import { decided } from "../batch/before-send.js";
import { patchRows } from "../batch/patch-rows.js";
import type { ResultWords } from "../batch/results.js";
import { withLedger } from "../batch/row-run.js";
import type { CsvOptions } from "../batch/run-options.js";
import { shortHash } from "../ledger/entry.js";
import { addressChanges } from "./address-diff.js";

export const ADDRESS_UPDATE_WORDS: ResultWords = { idKey: "address_id", idHeader: "address id", labelHeader: "name", done: "updated" };

export async function runAddressUpdateCsv(deps: Deps, options: CsvOptions): Promise<number> {
  return withLedger(deps, options, "address-update", ADDRESS_UPDATE_WORDS, addressRecords("address-update"), (run, ledger) =>
    patchRows(run, ledger, {
      spec: (keys) => addressScanSpec(run.tables, { keys, kind: "address-update" }),
      words: ADDRESS_UPDATE_WORDS,
      command: "address update",
      sends: "address",
      columnFor: (field) => field,
      hash: (row) => shortHash(addressContent(row)),
      addAddresses: (row, addresses) => addresses.add(row.addressKey, row.payload, row.row),
      ready: (row, decisions) => decided(row.addressKey, row.payload, decisions),
      send: async (id, payload, call) => (await run.deps.api()).updateAddress(id, payload, call),
      current: async (id, call) => (await run.deps.api()).getAddress(id, call),
      compare: (row, stored) => ({ changes: addressChanges(row.payload, stored, (f) => ({ field: f, column: f })) }),
      // A stored address has no price of its own.
      priced: () => false,
    }),
  );
}
