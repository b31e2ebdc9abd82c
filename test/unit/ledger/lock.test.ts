import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { acquireLock } from "../../../src/ledger/lock.js";
import { UsageError } from "../../../src/errors.js";
import { tempDir } from "../../helpers/cli.js";

function deadPid(): number {
  // A child that has exited: its pid names no process any more.
  return spawnSync(process.execPath, ["-e", ""]).pid!;
}

describe("acquireLock", () => {
  it("writes the pid in the same step that creates the lock, and leaves no temp file", async () => {
    const dir = tempDir("shipctl-lock-");
    const path = join(dir, "j.lock");
    const lock = await acquireLock(path, "the journal");
    expect(readFileSync(path, "utf8")).toBe(String(process.pid));
    expect(readdirSync(dir)).toEqual(["j.lock"]);
    await lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it("treats an empty lock (another run between create and write) as held, not stale", async () => {
    const path = join(tempDir("shipctl-lock-"), "j.lock");
    writeFileSync(path, "");
    await expect(acquireLock(path, "the journal")).rejects.toBeInstanceOf(UsageError);
    expect(existsSync(path)).toBe(true);
  });

  it("waits for an empty lock whose owner writes its pid a moment later, then reports that owner", async () => {
    const path = join(tempDir("shipctl-lock-"), "j.lock");
    writeFileSync(path, "");
    setTimeout(() => writeFileSync(path, "1"), 100);
    await expect(acquireLock(path, "the journal")).rejects.toThrow(/pid 1\b/);
  });

  it("refuses a lock held by a live process", async () => {
    const path = join(tempDir("shipctl-lock-"), "j.lock");
    writeFileSync(path, String(process.pid));
    await expect(acquireLock(path, "the journal")).rejects.toThrow(/another shipctl run \(pid \d+\)/);
  });

  it("takes over the lock of a dead process", async () => {
    const path = join(tempDir("shipctl-lock-"), "j.lock");
    writeFileSync(path, String(deadPid()));
    const lock = await acquireLock(path, "the journal");
    expect(readFileSync(path, "utf8")).toBe(String(process.pid));
    await lock.release();
  });
});
