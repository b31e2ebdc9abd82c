// What `watch` saw last, kept in the state folder (config/paths.ts stateDir) per profile and base URL, so a watch
// started again first reports what changed while none ran. One JSON file, written whole and atomically: a kill at
// any instant leaves the old file or the new one.
import { createHash } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import * as z from "zod";
import { stateDir } from "../config/paths.js";
import { writeFileAtomic } from "../fs/atomic-file.js";
import { ShipmentStatus } from "../contract/enums.js";
import { CliError } from "../errors.js";

const SeenEntry = z.object({ status: z.number().int(), title: z.string() });
export type Seen = z.infer<typeof SeenEntry>;

const StateFile = z.object({
  version: z.literal(1),
  profile: z.string(),
  base_url: z.string(),
  saved_at: z.string(),
  shipments: z.record(z.string().regex(/^\d+$/), SeenEntry),
});
type StateFile = z.infer<typeof StateFile>;

export interface WatchState {
  /** Last-seen status and title by shipment id (every id the file holds, watched by this run or not). */
  readonly seen: Map<number, Seen>;
  /** True when a file was there: a watch ran before for this profile and base URL. */
  readonly existed: boolean;
}

/** The state file of a profile and base URL: readable name first, a hash of both so two services never share one. */
export function watchStatePath(env: NodeJS.ProcessEnv, profile: string, baseUrl: string): string {
  const hash = createHash("sha256").update(`${profile}\n${baseUrl}`).digest("hex").slice(0, 12);
  const name = profile.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 40);
  return join(stateDir(env), "watch", `${name}-${hash}.json`);
}

export async function loadWatchState(path: string): Promise<WatchState> {
  const text = await readFile(path, "utf8").catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return undefined;
    throw new CliError(`cannot read the watch state ${path}: ${err.message}`, { hint: "Check its permissions, or point SHIPCTL_STATE_DIR elsewhere." });
  });
  if (text === undefined) return { seen: new Map(), existed: false };
  let parsed: StateFile;
  try {
    parsed = StateFile.parse(JSON.parse(text));
  } catch {
    // Starting afresh would silently lose what changed while no watch ran: say so and let the person decide.
    throw new CliError(`the watch state ${path} is damaged (not the JSON shipctl writes)`, {
      hint: "Delete it to start afresh: the next watch then reports changes from its first read on.",
    });
  }
  const seen = new Map(Object.entries(parsed.shipments).map(([id, s]) => [Number(id), s] as const));
  return { seen, existed: true };
}

/**
 * Writes `seen` for the shipments of this run over what the file holds now: another watch of the same profile (other
 * ids) may have saved since this one loaded, and its entries stay. A Completed shipment never changes again, so it is
 * dropped, and the file holds only shipments still under way.
 */
export async function saveWatchState(path: string, who: { profile: string; baseUrl: string }, seen: ReadonlyMap<number, Seen>, now: Date): Promise<void> {
  const current = await loadWatchState(path).catch(() => undefined);
  const merged = [...new Map([...(current?.seen ?? []), ...seen])].sort(([a], [b]) => a - b);
  const underWay = merged.filter(([, s]) => s.status !== ShipmentStatus.Completed);
  const shipments = Object.fromEntries(underWay.map(([id, s]) => [String(id), { status: s.status, title: s.title }]));
  const file: StateFile = { version: 1, profile: who.profile, base_url: who.baseUrl, saved_at: now.toISOString(), shipments };
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
}
