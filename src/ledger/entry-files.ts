// The files of the local store (local-store.ts): an entry read, created, rewritten in place or replaced, each with
// synchronous calls (a few microseconds of page-cache work each; the thread pool's round trips cost more than that).
import { closeSync, fstatSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-file.js";
import { isHeld } from "../fs/held-file.js";
import type { Entry } from "./store.js";

/**
 * A claim file still empty this long after its creation was left by a run killed between creating and writing it
 * (before sending: a claim is written before its request may leave); a live run writes it at once.
 */
const EMPTY_CLAIM_STALE_MS = 2_000;

/** An entry's file; undefined when there is none, or it is still being written (an empty claim). */
export function readEntry(path: string): Entry | undefined {
  // Most keys have no entry: a stat that says so costs less than the error a read would throw.
  if (statSync(path, { throwIfNoEntry: false }) === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  if (text.trim() === "") return undefined;
  return JSON.parse(text) as Entry;
}

/**
 * Rewrites a claim where it is, not by renaming a new file over it: ext4 starts writing a file renamed over another to
 * disk at once (its guard for programs that replace files without flushing), and removing the claim a moment later,
 * when its outcome is recorded, then waits for that write: 3 ms a claim here, most of a batch's time. One write of the
 * whole text, padded with spaces to the old length (JSON ignores them), so a kill leaves the old claim or the new one.
 */
export function rewriteClaim(path: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(path, "r+");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    fd = openSync(path, "wx", 0o600);
  }
  try {
    const bytes = Buffer.from(text, "utf8");
    const old = fstatSync(fd).size;
    writeAll(fd, old > bytes.length ? Buffer.concat([bytes, Buffer.alloc(old - bytes.length, " ")]) : bytes, 0);
  } finally {
    closeSync(fd);
  }
}

/** Creates `path` with `text` unless it exists (then false). */
export function createWith(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
  try {
    writeAll(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Tells this process's temporary files apart. */
let temporaries = 0;

/**
 * Replaces `path` with `text`, atomically (a temporary file renamed over it). Flushed only when `durable`; otherwise
 * done at once, synchronously, unless the file is held (Windows: an antivirus scanner), when writeFileAtomic waits.
 */
export async function replace(path: string, text: string, durable: boolean): Promise<void> {
  if (durable) return writeFileAtomic(path, text);
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${++temporaries}.tmp`);
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeAll(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (e) {
    remove(tmp);
    if (!isHeld(e)) throw e;
    await writeFileAtomic(path, text, { sync: false });
  }
}

/** Writes all of `data` (at `position`, or where the file is). */
export function writeAll(fd: number, data: string | Buffer, position?: number): void {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at, position === undefined ? null : position + at);
}

/** Removes a file that may already be gone. */
export function remove(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}

/**
 * A claim is written before its request may leave, so one left empty long after its creation was never sent: its run
 * was killed while claiming.
 */
export async function staleEmptyClaim(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    return info.size === 0 && Date.now() - info.mtimeMs > EMPTY_CLAIM_STALE_MS;
  } catch {
    return false;
  }
}
