// What the look before a create remembers between runs, one small file per organization in the state folder:
// <state>/look/<organization>.json. The organization is the service's base URL with the token (a sandbox, or a
// service, may hold several organizations at one URL); the file name is a hash of both, never the token. It holds
// where the newest shipment seen stood (look-pages.ts), the recent shipments seen (created within the window), from
// when they cover, and the ids this machine created (so its own shipments are never taken for another machine's).
// Deleting the file costs one first look, nothing else. Two runs writing at once each merge into what the other
// wrote: the ids created here are kept from both, and the newer end wins.
import { mkdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import * as z from "zod";
import { stateDir } from "../../config/paths.js";
import { writeFileAtomic } from "../../fs/atomic-file.js";
import { hexHash } from "../../ledger/entry.js";
import { normalBaseUrl } from "../../ledger/open-store.js";
import type { StoredShipment } from "../../contract/index.js";

const VERSION = 1;

const MemorySchema = z.object({
  version: z.literal(VERSION),
  end: z.object({ order: z.enum(["asc", "desc"]), newestId: z.number().int(), page: z.number().int().min(1) }).optional(),
  /** The earliest created_at (ms, service clock) the recent shipments cover. */
  coversSince: z.number().optional(),
  recent: z.array(z.looseObject({ id: z.number().int() })).default([]),
  mine: z.array(z.number().int()).default([]),
});
export type LookMemory = Omit<z.infer<typeof MemorySchema>, "recent"> & { recent: StoredShipment[] };

export function lookMemoryPath(env: NodeJS.ProcessEnv, org: { baseUrl: string; token: string }): string {
  return join(stateDir(env), "look", `${hexHash(`${normalBaseUrl(org.baseUrl)}\n${org.token}`, 24)}.json`);
}

/** The memory, or an empty one when there is none (or it cannot be read: a first look again). */
export async function readLookMemory(path: string): Promise<LookMemory> {
  try {
    const parsed = MemorySchema.safeParse(JSON.parse(await readFile(path, "utf8")));
    if (parsed.success) return parsed.data as LookMemory;
  } catch {
    // No file yet, or one cut short: the look starts afresh.
  }
  return { version: VERSION, recent: [], mine: [] };
}

/** Writes `next`, keeping the ids created here (from `keepFrom` on) that another run wrote meanwhile. */
export async function writeLookMemory(path: string, next: LookMemory, keepFrom = -Infinity): Promise<void> {
  const current = await readLookMemory(path);
  const mine = [...new Set([...current.mine, ...next.mine])].filter((id) => id >= keepFrom).sort((a, b) => a - b);
  const newer = current.end !== undefined && next.end !== undefined && current.end.newestId > next.end.newestId;
  const out = newer ? { ...current, mine } : { ...next, mine };
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, JSON.stringify(out));
}

/** Records ids this machine created (after a create run), so a later look does not count them as another's. */
export async function rememberCreated(path: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const current = await readLookMemory(path);
  await writeLookMemory(path, { ...current, mine: [...current.mine, ...ids] });
}
