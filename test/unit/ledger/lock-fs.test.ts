// Locks on the file systems a ledger may sit on, and on those that refuse: this machine's kernel has no vfat (no
// FAT32 image can be mounted here), so the file system's errors are injected. `fail` makes a call on a path fail
// with a system error code; `gate` holds the first removal of a path until the test lets it go; `claimRefused` is told when a takeover file
// exists already.
import { afterEach, describe, expect, it, vi } from "vitest";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { tempDir } from "../../helpers/cli.js";

type Call = "link" | "mkdir" | "create" | "write";
const inject = vi.hoisted(() => ({
  fail: new Map<string, string>(),
  gate: undefined as undefined | { path: string; reached: () => void; release: Promise<void> },
  claimRefused: undefined as undefined | (() => void),
}));
/** Fails a call on `path`, as set for that path or (for `create`) for its folder: nothing can be created there. */
const failWith = (call: Call, path: string) => {
  const code = inject.fail.get(`${call} ${path}`) ?? (call === "create" ? inject.fail.get(`create ${dirname(path)}`) : undefined);
  if (code) throw Object.assign(new Error(`${code}: injected, ${call} '${path}'`), { code });
};
vi.mock("node:fs/promises", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...fs,
    // A file system without hard links (FAT32, exFAT, some network shares): link() fails with EPERM.
    link: async (from: string, to: string) => {
      failWith("link", to);
      return fs.link(from, to);
    },
    mkdir: async (path: string, options?: Parameters<typeof fs.mkdir>[1]) => {
      failWith("mkdir", path);
      return fs.mkdir(path, options);
    },
    writeFile: async (path: string, data: string, options?: { flag?: string; mode?: number }) => {
      if (options?.flag === "wx") failWith("create", path);
      return fs.writeFile(path, data, options);
    },
    open: async (path: string, flags: string, mode?: number) => {
      if (flags === "wx") failWith("create", path);
      let file;
      try {
        file = await fs.open(path, flags, mode);
      } catch (e) {
        if (path.endsWith(".takeover")) inject.claimRefused?.();
        throw e;
      }
      const code = inject.fail.get(`write ${path}`);
      if (code) file.writeFile = () => Promise.reject(Object.assign(new Error(`${code}: injected, write '${path}'`), { code }));
      return file;
    },
    rm: async (path: string, options?: Parameters<typeof fs.rm>[1]) => {
      const gate = inject.gate;
      if (gate?.path === path) {
        inject.gate = undefined;
        gate.reached();
        await gate.release;
      }
      return fs.rm(path, options);
    },
  };
});

const { acquireLock } = await import("../../../src/ledger/lock.js");
const { LockFileError, ExitCode, errorJson } = await import("../../../src/errors.js");

afterEach(() => {
  inject.fail.clear();
  inject.gate = undefined;
  inject.claimRefused = undefined;
});

function deadPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid!;
}

function writeHolder(path: string, pid: number): void {
  writeFileSync(path, JSON.stringify({ pid, host: hostname(), command: "shipctl shipment create --csv a.csv", started: "2026-11-24T14:02:11.000Z" }));
}

/** Every way a link from a temporary file in `dir` could be made fails, as on FAT32. */
function noHardLinks(dir: string, path: string): void {
  inject.fail.set(`link ${path}`, "EPERM");
  for (const name of readdirSync(dir)) inject.fail.set(`link ${join(dir, name)}`, "EPERM");
}

describe("acquireLock where hard links are refused (FAT32 and exFAT USB sticks, some network shares)", () => {
  it("takes, refuses and releases the lock as anywhere else", async () => {
    const dir = tempDir("shipctl-lock-fat-");
    const path = join(dir, "j.lock");
    noHardLinks(dir, path);
    const lock = await acquireLock(path, "the ledger");
    expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({ pid: process.pid, host: hostname() });
    await expect(acquireLock(path, "the ledger")).rejects.toThrow(`another shipctl run is working on the ledger (pid ${process.pid}`);
    await lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("takes over a dead process's lock", async () => {
    const dir = tempDir("shipctl-lock-fat-");
    const path = join(dir, "j.lock");
    writeHolder(path, deadPid());
    noHardLinks(dir, path);
    const lock = await acquireLock(path, "the ledger");
    expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({ pid: process.pid });
    await lock.release();
  });
});

describe("acquireLock: two runs that both found a lock stale", () => {
  it("only one removes it: the other never removes the lock the first has taken since, and names it as the holder", async () => {
    const dir = tempDir("shipctl-lock-race-");
    const path = join(dir, "j.lock");
    writeHolder(path, deadPid());
    // The first run is held just before it removes the stale lock.
    let reached!: () => void;
    let release!: () => void;
    const atRemoval = new Promise<void>((r) => (reached = r));
    inject.gate = { path, reached, release: new Promise<void>((r) => (release = r)) };
    const first = acquireLock(path, "the ledger");
    await atRemoval;
    // The second finds the same stale lock meanwhile: it either waits for the first's takeover or (without one) takes
    // the lock itself, and then the first would remove it.
    const claimRefused = new Promise<void>((r) => (inject.claimRefused = r));
    const second = acquireLock(path, "the ledger");
    await Promise.race([claimRefused, second.then(() => undefined, () => undefined)]);
    release();
    const runs = await Promise.allSettled([first, second]);
    // Either may win: the first once it has removed the stale lock, or the second when its retry comes between that
    // removal and the first's create (a slow file system: Wine). Never both, and the loser names the winner.
    const won = runs.filter((r) => r.status === "fulfilled");
    const lost = runs.filter((r) => r.status === "rejected");
    expect([won.length, lost.length]).toEqual([1, 1]);
    expect(String(lost[0]!.reason)).toContain(`another shipctl run is working on the ledger (pid ${process.pid}`);
    await won[0]!.value.release();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("acquireLock: a lock file that cannot be created", () => {
  it.each([
    ["EACCES", /shipctl may not create files in its folder/, /^Give your user write access to /],
    ["EPERM", /shipctl may not create files in its folder/, /^Give your user write access to /],
    ["EROFS", /the disk is read-only/, /^Make .* writable/],
    ["ENOSPC", /the disk is full/, /^Free some space on the disk of /],
  ])("%s: a named error (exit 2, lock_failed) naming the lock file and what to do, not an unexpected error", async (code, why, fix) => {
    const dir = tempDir("shipctl-lock-refused-");
    const path = join(dir, "j.lock");
    inject.fail.set(`create ${dir}`, code);
    const e = await acquireLock(path, "the ledger").then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(LockFileError);
    const err = e as InstanceType<typeof LockFileError>;
    expect(err.message).toBe(`could not lock the ledger: ${path} cannot be created (${code}: ${why.source.replace(/\\/g, "")})`);
    expect(err.hint).toMatch(fix);
    expect(err.hint).toContain(dir);
    expect(err.hint).toMatch(/Then run the same command again; nothing was sent\.$/);
    expect(errorJson(err)).toMatchObject({ code: "lock_failed", exit_code: ExitCode.Usage, file: path });
    expect(existsSync(path)).toBe(false);
  });

  it("a disk that fills between the create and the write: named, and no empty lock left to block the next run", async () => {
    const dir = tempDir("shipctl-lock-full-");
    const path = join(dir, "j.lock");
    inject.fail.set(`write ${path}`, "ENOSPC");
    await expect(acquireLock(path, "the ledger")).rejects.toBeInstanceOf(LockFileError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a locks folder that cannot be made: named the same way", async () => {
    const dir = join(tempDir("shipctl-lock-nodir-"), "locks");
    const path = join(dir, "j.lock");
    inject.fail.set(`mkdir ${dir}`, "EROFS");
    await expect(acquireLock(path, "the ledger")).rejects.toThrow(`could not lock the ledger: ${path} cannot be created (EROFS: the disk is read-only)`);
  });
});
