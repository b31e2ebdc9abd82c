// The files of the local store (local-store.ts): a claim read or rewritten in place, entries appended to a bucket and
// found in it, each with synchronous calls (a few microseconds of page-cache work each; the thread pool's round trips
// cost more than that).
import { closeSync, existsSync, fdatasyncSync, fstatSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { stat } from "node:fs/promises";
import type { Entry } from "./store.js";

/**
 * A claim file still empty this long after its creation was left by a run killed between creating and writing it
 * (before sending: a claim is written before its request may leave); a live run writes it at once.
 */
const EMPTY_CLAIM_STALE_MS = 2_000;

/** An entry's file (a claim); undefined when there is none, or it is still being written (an empty claim). */
export function readEntry(path: string): Entry | undefined {
  const text = readIfThere(path);
  if (text === undefined || text.trim() === "") return undefined;
  return JSON.parse(text) as Entry;
}

/**
 * A file's text; undefined when there is none. Most keys have no claim, and a new ledger no buckets: asking first
 * costs less than the error a read would throw (about 30 µs a key), unless the file is `known` to be there.
 */
export function readIfThere(path: string, known = false): string | undefined {
  if (!known && !existsSync(path)) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
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

/**
 * Appends settled entries to a bucket file, in one write. Each line starts with a newline: a line a kill cut short
 * stays on its own, unreadable, and the next is whole. Flushed only when `durable`.
 */
export function appendEntries(path: string, entries: readonly Entry[], durable: boolean): void {
  const fd = openSync(path, "a", 0o600);
  try {
    writeAll(fd, entries.map((e) => `\n${lineOf(e)}`).join(""));
    if (durable) fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** An entry's line, its key first: lastEntryIn finds it by that prefix. */
function lineOf(e: Entry): string {
  return JSON.stringify({ key: e.key, input: e.input, state: e.state });
}

/** The last whole entry of `key` in a bucket file's text, found by its line's prefix without parsing the others. */
export function lastEntryIn(text: string, key: string): Entry | undefined {
  const prefix = `\n{"key":${JSON.stringify(key)},`;
  for (let at = text.lastIndexOf(prefix); at !== -1; at = at === 0 ? -1 : text.lastIndexOf(prefix, at - 1)) {
    const end = text.indexOf("\n", at + 1);
    const entry = parseLine(text.slice(at + 1, end === -1 ? undefined : end));
    if (entry !== undefined) return entry;
  }
  return undefined;
}

/** Every key's last whole entry in a bucket file. */
export function entriesIn(path: string): Entry[] {
  const last = new Map<string, Entry>();
  for (const line of (readIfThere(path) ?? "").split("\n")) {
    const entry = parseLine(line);
    if (entry !== undefined) last.set(entry.key, entry);
  }
  return [...last.values()];
}

/** A line's entry; undefined for an empty line or one a kill cut short (its claim is still there: in flight). */
function parseLine(line: string): Entry | undefined {
  if (line === "") return undefined;
  try {
    return JSON.parse(line) as Entry;
  } catch {
    return undefined;
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
