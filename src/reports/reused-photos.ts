// A condition report is evidence of the artwork as it is at one moment: a set whose photos were already sent (the
// same shipment's other set, another shipment's, or another folder of the same batch) compares nothing. So before
// anything is sent, each photo of a report this run may send is hashed (SHA-256 of the original file as the user chose
// it, never a fitted or stripped copy) and looked up in the organization's ledger under `photo:<hash>` (entry-keys.ts):
// one find per photo, the same cost against an empty ledger and a large one. A photo whose entry names another set
// that the ledger holds stored or in flight is reused; its own set's entry (a set sent again after a failure) is not,
// and a report the ledger holds stored or in flight is not checked at all (a rerun skips it as before). As a report is
// sent its photos get their entries (recordSentPhotos); an entry naming another live set is kept, so a photo sent again
// on purpose (--allow-reused) still names the set that sent it first.
// What a run says of reused photos: every one named on stderr beside the file whose bytes it repeats, and its report
// refused before anything is sent (exit 2, as a problem with the photos), the batch's other reports going on; or, with
// --allow-reused, sent on purpose with a note saying so.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { join } from "node:path";
import type { ReportSet } from "../contract/index.js";
import type { Deps } from "../deps.js";
import { ExitCode } from "../errors.js";
import { mapLimit } from "../batch/pool.js";
import { photoKey } from "../ledger/entry-keys.js";
import type { InputLedger } from "../ledger/input-ledger.js";
import type { Entry } from "../ledger/store.js";
import { formatTimestamp } from "../output/time-format.js";
import type { PreparedReport } from "./prepare-reports.js";
import { reportKey } from "./report-ledger.js";
import { outcomeMaker, type ReportOutcome } from "./report-outcome.js";
import type { EarlierUse, Photo, ReusedPhoto } from "./report-types.js";
import type { Earlier } from "./settle-earlier.js";

/** Photos hashed at a time: whole files read, as many at once as the folder checks read. */
const HASHES_AT_ONCE = 4;
/** Ledger look-ups at a time: one small file each (or one indexed row). */
const LOOKUPS_AT_ONCE = 16;

export interface ReuseContext {
  ledger: InputLedger;
  set: ReportSet;
  /** Reports an earlier run left in flight: settled before, never sent by this run without their verdict. */
  earlier: ReadonlyMap<string, Earlier>;
  signal: AbortSignal;
}

interface Hashed {
  /** The report's index. */
  i: number;
  photo: Photo;
  /** The original, as the user chose it. */
  path: string;
  sha256: string;
}

/**
 * The reused photos of each report this run may send (by index; reports without any are left out). Each report
 * checked is given the photos it records as its own once it is sent (`ownPhotos`).
 */
export async function findReusedPhotos(ctx: ReuseContext, reports: readonly PreparedReport[]): Promise<Map<number, ReusedPhoto[]>> {
  const checked = await mapLimit(reports, LOOKUPS_AT_ONCE, (r) => mayBeSent(ctx, r));
  const photos = reports.flatMap((r, i) => (checked[i] ? r.photos.map((photo) => ({ i, photo, path: join(r.target.folder, photo.file) })) : []));
  const hashed = await mapLimit(photos, HASHES_AT_ONCE, async (p): Promise<Hashed> => ({ ...p, sha256: await sha256Of(p.path) }), () => !ctx.signal.aborted);
  // Stopped (Ctrl-C): nothing more starts, so nothing is sent; the run reports what it did as it does for any stop.
  if (ctx.signal.aborted) return new Map();
  const all = hashed as Hashed[];
  const byHash = new Map<string, Hashed[]>();
  for (const h of all) byHash.set(h.sha256, [...(byHash.get(h.sha256) ?? []), h]);
  const setEntries = new Map<string, Promise<Entry | undefined>>();
  const setEntry = (id: number, set: ReportSet) => {
    const key = ctx.ledger.usualKey(reportKey(id, set));
    if (!setEntries.has(key)) setEntries.set(key, ctx.ledger.store.find(key));
    return setEntries.get(key)!;
  };
  const sentBefore = await mapLimit(all, LOOKUPS_AT_ONCE, (h) => ledgerUse(ctx, reports[h.i]!, h.sha256, setEntry));
  const reused = new Map<number, ReusedPhoto[]>();
  for (const [k, h] of all.entries()) {
    const report = reports[h.i]!;
    const inBatch = byHash.get(h.sha256)!.filter((o) => o.i !== h.i).map((o) => batchUse(reports[o.i]!, o, ctx.set));
    const uses = [...(sentBefore[k] ? [sentBefore[k]] : []), ...inBatch];
    if (uses.length > 0) reused.set(h.i, [...(reused.get(h.i) ?? []), ...uses.map((earlier) => ({ file: h.photo.file, earlier }))]);
    // Sent anyway (--allow-reused), a photo stays the set's that sent it first: before this run, or the first folder of
    // this batch holding it (sent first), not whichever folder's record is written last.
    if (!sentBefore[k] && byHash.get(h.sha256)![0]!.i === h.i) (report.ownPhotos ??= []).push({ sha256: h.sha256, file: h.path });
  }
  return reused;
}

/** Whether this run may send the report: not when the ledger holds it stored or in flight (its verdict stands). */
async function mayBeSent(ctx: ReuseContext, report: PreparedReport): Promise<boolean> {
  const key = reportKey(report.target.shipmentId, ctx.set);
  if (ctx.earlier.has(key)) return false;
  const state = ctx.ledger.row(key) ?? (await ctx.ledger.store.find(ctx.ledger.ledgerKey(key)))?.state;
  return state?.state !== "stored" && state?.state !== "in_flight";
}

/** The set the ledger says sent these bytes, when it is another set and the ledger holds it stored or in flight. */
async function ledgerUse(
  ctx: ReuseContext,
  report: PreparedReport,
  sha256: string,
  setEntry: (id: number, set: ReportSet) => Promise<Entry | undefined>,
): Promise<EarlierUse | undefined> {
  const found = (await ctx.ledger.store.find(photoKey(sha256)))?.state;
  if (found?.state !== "photo" || (found.id === report.target.shipmentId && found.set === ctx.set)) return undefined;
  // A set that was never stored (refused, failed) sent nothing: its photos are free for another.
  const state = (await setEntry(found.id, found.set as ReportSet))?.state;
  const use = { shipmentId: found.id, set: found.set, file: found.file };
  if (state?.state === "stored") return { ...use, state: "stored", at: state.at ?? found.at };
  if (state?.state === "in_flight") return { ...use, state: "in_flight", at: state.sent_at ?? state.at };
  return undefined;
}

function batchUse(other: PreparedReport, photo: Hashed, set: ReportSet): EarlierUse {
  return { shipmentId: other.target.shipmentId, set, file: photo.path, state: "in_this_batch", folder: other.target.label };
}

/**
 * Records a report's own photos (those no other live set sent) under their content, just before its body leaves.
 * Not flushed: a crash that loses them loses only the check of a later set against this one.
 */
export async function recordSentPhotos(ledger: InputLedger, set: ReportSet, report: PreparedReport, at: Date): Promise<void> {
  const own = report.ownPhotos ?? [];
  if (own.length === 0) return;
  const state = { state: "photo" as const, id: report.target.shipmentId, set, at: at.toISOString() };
  await ledger.store.record(own.map((p) => ({ key: photoKey(p.sha256), input: ledger.source, state: { ...state, file: p.file } })), { durable: false });
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export const REUSED_FIX = "photograph the set anew (a condition report shows the artwork as it is at that moment); --allow-reused sends these photos on purpose";

/** The reports (by index) refused for reused photos, with their outcome; none with `allow`. Says what it found. */
export function reusedOutcomes(deps: Deps, set: ReportSet, reports: readonly PreparedReport[], found: ReadonlyMap<number, ReusedPhoto[]>, allow: boolean): Map<number, ReportOutcome> {
  const refused = new Map<number, ReportOutcome>();
  const t = deps.theme.err;
  for (const [i, reused] of [...found].sort(([a], [b]) => a - b)) {
    const report = reports[i]!;
    report.reused = reused;
    const where = `${t.bold(report.target.label)} (shipment ${report.target.shipmentId}, set ${set})`;
    const lines = listedUses(reused)
      .map((r) => `  ${t.bold(r.file)}: ${"more" in r ? `and ${r.more} more sets hold the same photo${deps.globals.json ? "" : " (--json lists every one)"}` : `the same photo, byte for byte, as ${r.earlier.file}, ${r.earlier.state === "in_this_batch" ? "of" : "sent in"} ${sourceText(r.earlier)}`}\n`)
      .join("");
    if (allow) {
      deps.io.err(`${t.warn("Note:")} reused photos in ${where}, sent on purpose (--allow-reused):\n${lines}`);
      continue;
    }
    deps.io.alert(`${t.error("Reused photos in")} ${where}: nothing sent for it\n${lines}    ${t.dim(`fix: ${REUSED_FIX}`)}\n`);
    refused.set(i, outcomeMaker({ set }, report)("refused", refusalMessage(reused), ExitCode.Usage));
  }
  return refused;
}

/**
 * Uses named per photo (and sets named in the sentence). A batch of many folders holding the same photos (a template
 * folder copied for each shipment) makes every photo a reuse of every other folder: n folders would take n × (n - 1)
 * lines a photo, a million for 300 folders, where a few and a count say the same. --json carries every use.
 */
const LISTED_USES = 3;

/** Each photo's first LISTED_USES uses, then one entry counting the rest. */
function listedUses(reused: readonly ReusedPhoto[]): Array<ReusedPhoto | { file: string; more: number }> {
  const byFile = new Map<string, ReusedPhoto[]>();
  for (const r of reused) {
    const uses = byFile.get(r.file);
    if (uses) uses.push(r);
    else byFile.set(r.file, [r]);
  }
  return [...byFile].flatMap(([file, uses]) =>
    uses.length > LISTED_USES ? [...uses.slice(0, LISTED_USES), { file, more: uses.length - LISTED_USES }] : uses,
  );
}

/** One sentence for the results table and --json: how many, from which sets, and one pair of files. */
function refusalMessage(reused: readonly ReusedPhoto[]): string {
  const files = new Set(reused.map((r) => r.file)).size;
  const sources = new Map<string, string>();
  for (const r of reused) sources.set(`${r.earlier.shipmentId}/${r.earlier.set}/${r.earlier.folder ?? ""}`, sourceText(r.earlier));
  const first = reused[0]!;
  return (
    `not sent: ${files === 1 ? "1 of its photos is" : `${files} of its photos are`} byte for byte ${files === 1 ? "a photo" : "photos"} of ` +
    `${[...sources.values()].slice(0, LISTED_USES).join(", and of ")}${sources.size > LISTED_USES ? `, and of ${sources.size - LISTED_USES} more sets` : ""}: ${first.file} is ${first.earlier.file}${files === 1 ? "" : `, and ${files - 1} more`}; ${REUSED_FIX}`
  );
}

/** Which set the bytes belong to, and what the ledger says of it. */
function sourceText(use: EarlierUse): string {
  if (use.state === "in_this_batch") return `folder ${use.folder} of this run (shipment ${use.shipmentId}, set ${use.set})`;
  return `set ${use.set} of shipment ${use.shipmentId} (${stateText(use)})`;
}

function stateText(use: EarlierUse): string {
  const at = use.at ? ` ${formatTimestamp(use.at)}` : "";
  return use.state === "stored" ? `stored${at}` : `sent${at}, its answer not recorded yet`;
}

/** A reused photo in --json: the file, and where its bytes were sent (or go) too. */
export function reusedJson(r: ReusedPhoto) {
  const e = r.earlier;
  return { file: r.file, earlier: { shipment_id: e.shipmentId, set: e.set, file: e.file, state: e.state, at: e.at ?? null } };
}
