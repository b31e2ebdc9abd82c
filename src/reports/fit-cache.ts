// Fitted copies kept by the content of their original, so fitting done once is not done again: a batch stopped by
// Ctrl-C while fitting, or a rerun that still has reports to send, takes the copies already made instead of fitting
// the same photos again (0.5 s and more each). Kept in the user's cache folder (config/paths.ts cacheDir), which may
// be deleted at any time: a missing or unreadable entry is simply fitted again, and a cache that cannot be written
// costs time, never the upload. Entries not used for a week are removed when a run opens the cache.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { REPORT } from "../contract/limits.js";
import type { FitResult } from "./fit.js";
import type { Photo } from "./report-types.js";

/** Part of every key: bump it when fit.ts would make a different copy of the same photo under the same rules. */
const RULES_VERSION = 1;
const KEEP_MS = 7 * 86_400_000;

type Fitted = Extract<FitResult, { ok: true }>;
/** What a copy is, besides where it lies and which side of which folder it serves. */
type Entry = Pick<Photo, "type" | "bytes" | "width" | "height" | "fitted" | "locationStripped"> & { name: string };

export class FitCache {
  private constructor(private readonly dir: string) {}

  /** The cache in `dir`, its entries older than a week removed; undefined when the folder cannot be made. */
  static async open(dir: string, now = Date.now()): Promise<FitCache | undefined> {
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      for (const name of await readdir(dir)) {
        const path = join(dir, name);
        if (now - (await stat(path)).mtimeMs > KEEP_MS) await rm(path, { recursive: true, force: true });
      }
      return new FitCache(dir);
    } catch {
      return undefined;
    }
  }

  /** `photo` fitted under these rules: the copy kept from an earlier run, copied into `workDir`, or `make()`'s, kept. */
  async fit(photo: Photo, workDir: string, rules: { stripLocation?: boolean }, make: () => Promise<FitResult>): Promise<FitResult> {
    const key = await this.keyOf(photo, rules).catch(() => undefined);
    if (key === undefined) return make();
    const kept = await this.take(photo, workDir, key);
    if (kept) return kept;
    const made = await make();
    if (made.ok) await this.keep(key, made).catch(() => undefined);
    return made;
  }

  private async keyOf(photo: Photo, rules: { stripLocation?: boolean }): Promise<string> {
    const hash = createHash("sha256").update(JSON.stringify([RULES_VERSION, REPORT.photoSafeBytes, rules.stripLocation === true, photo.type]));
    await pipeline(createReadStream(photo.path), hash);
    return hash.digest("base64url");
  }

  private async take(photo: Photo, workDir: string, key: string): Promise<Fitted | undefined> {
    try {
      const entry = JSON.parse(await readFile(join(this.dir, key, "entry.json"), "utf8")) as Entry;
      // Named for this photo's side, as fit.ts names its copies: the same bytes may serve another side elsewhere.
      const path = join(workDir, `${photo.group}-${photo.side}${extname(entry.name)}`);
      await copyFile(join(this.dir, key, entry.name), path);
      const now = new Date();
      await utimes(join(this.dir, key), now, now);
      const { name: _name, ...copy } = entry;
      return { ok: true, photo: { ...photo, ...copy, path }, cached: true };
    } catch {
      return undefined;
    }
  }

  /** Written beside, then renamed into place: a run stopped midway leaves no half entry. */
  private async keep(key: string, made: Fitted): Promise<void> {
    const tmp = join(this.dir, `.${key}.${process.pid}.tmp`);
    await mkdir(tmp, { recursive: true });
    const name = basename(made.photo.path);
    await copyFile(made.photo.path, join(tmp, name));
    const { type, bytes, width, height, fitted, locationStripped } = made.photo;
    const entry: Entry = { type, bytes, width, height, fitted, locationStripped, name };
    await writeFile(join(tmp, "entry.json"), JSON.stringify(entry));
    await rename(tmp, join(this.dir, key)).catch(async (e: unknown) => {
      await rm(tmp, { recursive: true, force: true });
      throw e;
    });
  }
}
