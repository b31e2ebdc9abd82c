// `shipctl address verify --csv FILE`, `shipctl address add --csv FILE` and `shipctl address update --csv FILE`, each
// through the shared batch pipeline (batch/) with the address spec (address-spec.ts).
// verify: each distinct address is verified once; every row gets its address's verdict. Nothing is stored, so no
//   ledger. Exit 0 all valid, 8 some valid, 6 none valid, 7 the service was unavailable.
// add: like `shipment create --csv` one address a request: verified first (unless --no-verify), then POSTed with the
//   ledger around each request; POST /api/v1/addresses has no idempotency key either, so a lost answer is reconciled
//   by reading the stored addresses back before anything is resent.
// update: every row carries the id of a stored address and all its fields (the service replaces the whole address),
//   e.g. an edited `list addresses --format csv`. Each row is compared with its address as it is now
//   (batch/update-plan.ts), and only the rows that change something go on: each of their distinct addresses verified
//   once (unless --no-verify), then each row sent as its own PATCH, as `shipment update --csv` does (batch/patch-rows.ts).
import type { Deps } from "../deps.js";
import { AddressSet, revisionText, VerdictRequests } from "../batch/address-set.js";
import { addressContent, addressRecords, addressScanSpec, type ValidAddressRow } from "./address-spec.js";
import { withBatch, type BatchRun } from "../batch/batch-run.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import { settledEarlier, settleEarlierRuns, settleOwnLost } from "../batch/settle-lost.js";
import { problemsText } from "../batch/outcomes.js";
import { decided, verifyDistinct } from "../batch/before-send.js";
import { firstPass } from "../batch/first-pass.js";
import type { ResultWords } from "../batch/results.js";
import type { RowJob } from "../batch/write-sender.js";
import { sendRowPass, withLedger } from "../batch/row-run.js";
import type { CsvOptions } from "../batch/run-options.js";
import { openScan } from "../csv/scan.js";
import { ADDRESS_FIELDS, type StoredAddress } from "../contract/index.js";
import { addressFinder, storedAddressFinder } from "./stored-match.js";
import { patchRows } from "../batch/patch-rows.js";
import { shortHash } from "../ledger/entry.js";
import { fieldChanges } from "./address-diff.js";

const words = (done: ResultWords["done"]): ResultWords => ({ idKey: "address_id", idHeader: "address id", labelHeader: "name", done });
const VERIFY_WORDS = words("valid");
const ADD_WORDS = words("created");
const UPDATE_WORDS = words("updated");

export async function runAddressVerifyCsv(deps: Deps, options: CsvOptions): Promise<number> {
  return withBatch(deps, options, "address-verify", VERIFY_WORDS, (run) => verifyBatch(run));
}

export async function runAddressAddCsv(deps: Deps, options: CsvOptions): Promise<number> {
  return withLedger(deps, options, "address-add", ADD_WORDS, addressRecords("address-add"), addBatch);
}

export async function runAddressUpdateCsv(deps: Deps, options: CsvOptions): Promise<number> {
  return withLedger(deps, options, "address-update", UPDATE_WORDS, addressRecords("address-update"), (run, ledger) =>
    patchRows(run, ledger, {
      spec: (keys) => addressScanSpec(run.tables, { keys, kind: "address-update" }),
      words: UPDATE_WORDS,
      command: "address update",
      sends: "address",
      columnFor: (field) => field,
      hash: (row) => shortHash(addressContent(row)),
      addAddresses: (row, addresses) => addresses.add(row.addressKey, row.payload, row.row),
      ready: (row, decisions) => decided(row.addressKey, row.payload, decisions),
      send: async (id, payload, call) => (await run.deps.api()).updateAddress(id, payload, call),
      current: async (id, call) => (await run.deps.api()).getAddress(id, call),
      compare: (row, stored) => ({ changes: fieldChanges(ADDRESS_FIELDS, row.payload, stored) }),
      // A stored address has no price of its own.
      priced: () => false,
    }),
  );
}

async function verifyBatch(run: BatchRun): Promise<number> {
  const { deps, outcomes } = run;
  const spec = addressScanSpec(run.tables, { keys: false, kind: "address-verify" });
  const addresses = new AddressSet();
  const { finish, refused } = await firstPass(run, undefined, {
    scan: spec,
    finish: { words: VERIFY_WORDS, command: "address verify", spec },
    onValid: (row) => addresses.add(row.addressKey, row.payload, row.row),
  });
  if (refused !== undefined) return refused;

  const api = await deps.api();
  deps.io.err(`Verifying ${addresses.size} distinct address${addresses.size === 1 ? "" : "es"}...\n`);
  // No ledger: verifying stores nothing. A failure that stops the run (not authenticated, Ctrl-C) is thrown.
  const requests = new VerdictRequests({ api: async () => api, concurrency: run.options.concurrency, call: run.call });
  const asked = [...addresses.byKey].map(async ([key, d]) => [key, await requests.get(key, d.address)] as const);
  const verdicts = new Map(await Promise.all(asked));

  const scan = await openScan(run.source, spec);
  for await (const row of scan.rows) {
    const base = { label: row.label, reference: row.reference };
    if (!row.ok) {
      outcomes.set(row.row, { status: "failed", ...base, error: problemsText(row.problems), problems: row.problems });
      continue;
    }
    const v = verdicts.get((row as ValidAddressRow).addressKey)!;
    if ("failed" in v) outcomes.set(row.row, { status: "failed", ...base, error: `not verified: ${v.failed}`, unavailable: true });
    else if (v.status === "valid") outcomes.set(row.row, { status: "valid", ...base });
    else if (v.status === "invalid") outcomes.set(row.row, { status: "failed", ...base, error: `invalid: ${v.message}` });
    else outcomes.set(row.row, { status: "failed", ...base, error: `recommended revision: ${revisionText(row.payload, v.revised)}` });
  }
  return finish();
}

async function addBatch(run: BatchRun, ledger: InputLedger): Promise<number> {
  const { deps, options } = run;
  // A dry run needs the rows' keys only to look them up in the ledger.
  const spec = addressScanSpec(run.tables, { keys: !options.dryRun || ledger.hasRows, kind: "address-add" });
  const addresses = new AddressSet();
  const { validation, finish, refused } = await firstPass(run, ledger, {
    scan: addressScanSpec(run.tables, { keys: true, kind: "address-add" }),
    finish: { words: ADD_WORDS, command: "address add", spec },
    creates: true,
    onValid: (row, done) => {
      if (!done) addresses.add(row.addressKey, row.payload, row.row);
    },
  });
  if (refused !== undefined) return refused;

  // A dry run reads the service back as the run would, and never waits: rows still in flight are reported unknown.
  const settled = await settleEarlierRuns(deps, ledger, await addressFinder(deps, run.call, ledger), { wait: options.wait && !options.dryRun, noun: { read: "addresses", row: "row" } });
  const api = await deps.api();
  // An address already stored (by flags, another file, another config folder) is not stored again: it is looked for
  // among the stored addresses, as written before verifying and as verification decided after (stored-match.ts). A
  // dry run looks too (a read), so it predicts those rows as already created, as the run will report them.
  const findStored = options.forceNew ? undefined : storedAddressFinder(api, run.call);
  const alreadyStored = new Map<string, StoredAddress>();
  const toVerify = new AddressSet();
  for (const [key, d] of addresses.byKey) {
    const found = await findStored?.(d.address);
    if (found) alreadyStored.set(key, found);
    else {
      toVerify.add(key, d.address, d.firstRow);
      // Its rows, as the revision prompt names them ("used on 3 rows").
      toVerify.byKey.get(key)!.rows = d.rows;
    }
  }
  const decisions = await verifyDistinct(run, ledger, toVerify);
  for (const [key, d] of toVerify.byKey) {
    const ready = decided(key, d.address, decisions);
    const found = "payload" in ready && ready.payload !== d.address ? await findStored?.(ready.payload) : undefined;
    if (found) alreadyStored.set(key, found);
  }

  return sendRowPass<ValidAddressRow, RowJob>(run, ledger, {
    spec,
    validation,
    done: "created",
    sends: "address",
    columnFor: (field) => field,
    prepare: (row, base) => {
      const earlier = settledEarlier(ledger, settled, row.key, base);
      if (earlier) return { outcome: earlier };
      const stored = alreadyStored.get(row.addressKey);
      if (stored) {
        ledger.note([[row.key, { state: "created", id: stored.id }]]);
        return { outcome: { status: "skipped", ...base, id: stored.id } };
      }
      const ready = decided(row.addressKey, row.payload, decisions);
      if ("error" in ready) return { outcome: { status: "failed", ...base, error: ready.error, unavailable: ready.unavailable } };
      const address = ready.payload;
      return { job: { key: row.key, row: row.row, ...base, sent: [address], body: address as unknown as Record<string, unknown>, send: async () => (await api.createAddress(address, run.call)).id } };
    },
    settleLost: (sender) => settleOwnLost(deps, ledger, sender.lost, () => addressFinder(deps, run.call, ledger), { outcomes: run.outcomes, say: run.say, noun: { read: "addresses", row: "row" }, readBack: sender.stopped === undefined }),
    finish,
  });
}
