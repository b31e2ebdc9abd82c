import { describe, expect, it, vi } from "vitest";
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { hostname } from "node:os";
import { acquireLock } from "../../../src/ledger/lock.js";
import { UsageError } from "../../../src/errors.js";
import { tempDir } from "../../helpers/cli.js";

function deadPid(): number {
  // A child that has exited: its pid names no process any more.
  return spawnSync(process.execPath, ["-e", ""]).pid!;
}

/** Writes a lock as a run of `pid` on this host would. */
function writeHolder(path: string, pid: number, command = "shipctl shipment create --csv a.csv"): void {
  writeFileSync(path, JSON.stringify({ pid, host: hostname(), command, started: "2026-11-24T14:02:11.000Z" }));
}

function holder(path: string): { pid: number; host: string; command: string; started: string } {
  return JSON.parse(readFileSync(path, "utf8")) as { pid: number; host: string; command: string; started: string };
}

describe("acquireLock", () => {
  it("writes its holder (pid, host, command, start) in the lock, and leaves no other file beside it", async () => {
    const dir = tempDir("shipctl-lock-");
    const path = join(dir, "j.lock");
    const lock = await acquireLock(path, "the ledger");
    expect(holder(path)).toMatchObject({ pid: process.pid, host: hostname(), command: expect.stringMatching(/^shipctl/), started: expect.any(String) });
    expect(readdirSync(dir)).toEqual(["j.lock"]);
    await lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it("treats an empty lock (another run between create and write) as held, not stale", async () => {
    const path = join(tempDir("shipctl-lock-"), "j.lock");
    writeFileSync(path, "");
    await expect(acquireLock(path, "the ledger")).rejects.toBeInstanceOf(UsageError);
    expect(existsSync(path)).toBe(true);
  });

  it("waits for an empty lock whose owner writes its holder a moment later, then reports that owner", async () => {
    const path = join(tempDir("shipctl-lock-"), "j.lock");
    writeFileSync(path, "");
    setTimeout(() => writeHolder(path, process.pid), 100);
    await expect(acquireLock(path, "the ledger")).rejects.toThrow(new RegExp(`pid ${process.pid}\\b`));
  });

  it("refuses a lock held by a live process, naming that run's command and start time", async () => {
    const path = join(tempDir("shipctl-lock-"), "j.lock");
    const started = "2026-11-24T14:02:11.000Z";
    writeFileSync(path, JSON.stringify({ pid: process.pid, host: hostname(), command: "shipctl shipment create --csv a.csv", started }));
    await expect(acquireLock(path, "the ledger")).rejects.toThrow(
      `another shipctl run is working on the ledger (pid ${process.pid}, \`shipctl shipment create --csv a.csv\`, started 2026-11-24 14:02:11 UTC)`,
    );
  });

  it("reads a lock holding only a number (shipctl 0.1's, never released) as naming no process: reported, never taken over", async () => {
    const path = join(tempDir("shipctl-lock-"), "j.lock");
    writeFileSync(path, String(deadPid()));
    await expect(acquireLock(path, "the ledger")).rejects.toThrow(`another shipctl run may be working on the ledger: its lock ${path} names no process`);
    expect(existsSync(path)).toBe(true);
  });

  it("never takes over a lock held on another host: it cannot tell whether that run is alive", async () => {
    const path = join(tempDir("shipctl-lock-"), "j.lock");
    writeFileSync(path, JSON.stringify({ pid: deadPid(), host: "another-machine", command: "shipctl shipment create --csv a.csv", started: "" }));
    await expect(acquireLock(path, "the ledger")).rejects.toThrow(/on another-machine/);
  });

  it("with a wait: takes the lock once the live run holding it lets go, having said which run it waits for", async () => {
    const path = join(tempDir("shipctl-lock-"), "j.lock");
    writeFileSync(path, JSON.stringify({ pid: process.pid, host: hostname(), command: "shipctl checkout 12 --yes", started: "" }));
    const said: string[] = [];
    setTimeout(() => rmSync(path), 150);
    const lock = await acquireLock(path, "the ledger", { ms: 10_000, say: (h) => said.push(h) });
    expect(said).toEqual([`pid ${process.pid}, \`shipctl checkout 12 --yes\``]);
    expect(holder(path).pid).toBe(process.pid);
    await lock.release();
  });

  it("with a wait: still refuses, naming the run, when it holds the lock longer than the wait", async () => {
    const path = join(tempDir("shipctl-lock-"), "j.lock");
    writeFileSync(path, JSON.stringify({ pid: process.pid, host: hostname(), command: "shipctl checkout 12 --yes", started: "" }));
    await expect(acquireLock(path, "the ledger", { ms: 200, say: () => undefined })).rejects.toThrow(
      `another shipctl run is working on the ledger (pid ${process.pid}, \`shipctl checkout 12 --yes\`); waited 0.2 s for it`,
    );
    expect(existsSync(path)).toBe(true);
  });

  it("takes over the lock of a dead process, leaving no takeover file", async () => {
    const dir = tempDir("shipctl-lock-");
    const path = join(dir, "j.lock");
    writeHolder(path, deadPid());
    const lock = await acquireLock(path, "the ledger");
    expect(holder(path).pid).toBe(process.pid);
    expect(readdirSync(dir)).toEqual(["j.lock"]);
    await lock.release();
  });

  it("five runs at once on a dead process's lock: exactly one takes it, the others name it as the holder", async () => {
    const path = join(tempDir("shipctl-lock-"), "j.lock");
    writeHolder(path, deadPid());
    const runs = await Promise.allSettled([1, 2, 3, 4, 5].map(() => acquireLock(path, "the ledger")));
    const won = runs.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const r of runs) if (r.status === "rejected") expect(String(r.reason)).toContain(`another shipctl run is working on the ledger (pid ${process.pid}`);
    await (won[0] as PromiseFulfilledResult<{ release(): Promise<void> }>).value.release();
  });

  it("a takeover file left by a run killed mid-takeover: waited for, then named with the lock, and nothing removed", async () => {
    const dir = tempDir("shipctl-lock-");
    const path = join(dir, "j.lock");
    const dead = deadPid();
    writeHolder(path, dead);
    writeHolder(`${path}.${dead}.takeover`, deadPid());
    // The wait is seconds of the lock's own clock: faked, and moved on whenever the run is waiting.
    vi.useFakeTimers({ toFake: ["setTimeout", "Date"] });
    try {
      let settled = false;
      const run = acquireLock(path, "the ledger").finally(() => (settled = true));
      run.catch(() => undefined);
      while (!settled) {
        await vi.advanceTimersByTimeAsync(100);
        await new Promise((r) => setImmediate(r));
      }
      await expect(run).rejects.toThrow("another shipctl run is taking over the lock of a stopped run on the ledger, or stopped while doing so");
      await expect(run).rejects.toMatchObject({ hint: `Run again in a moment. If no shipctl run is working on it, delete ${path}.${dead}.takeover and ${path}.` });
    } finally {
      vi.useRealTimers();
    }
    expect(readdirSync(dir).sort()).toEqual(["j.lock", `j.lock.${dead}.takeover`]);
  });
});
