// A file another program holds (Windows: Excel's share lock, an antivirus scan, OneDrive): replacing it is retried
// through an injected sleep, then a named error says which file. Linux lets any file be replaced, so the file
// system's error is injected (rename fails with EPERM/EBUSY while `held` says so).
import { afterEach, describe, expect, it, vi } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { tempDir } from "../../helpers/cli.js";

const held = vi.hoisted(() => ({ path: "", times: 0, code: "EPERM" }));
vi.mock("node:fs/promises", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...fs,
    rename: async (from: string, to: string) => {
      if (to === held.path && held.times > 0) {
        held.times--;
        throw Object.assign(new Error(`${held.code}: operation not permitted, rename '${from}' -> '${to}'`), { code: held.code });
      }
      return fs.rename(from, to);
    },
  };
});

const { whileHeld, HELD_WAITS_MS, checkReplaceable } = await import("../../../src/fs/held-file.js");
const { writeFileAtomic } = await import("../../../src/fs/atomic-file.js");
const { writeResultsFiles } = await import("../../../src/csv/results-csv.js");
const { openSource } = await import("../../../src/csv/csv-source.js");
const { Outcomes } = await import("../../../src/batch/outcomes.js");
const { FileInUseError, exitCodeOfError, errorJson } = await import("../../../src/errors.js");

const waits: number[] = [];
const sleep = async (ms: number) => void waits.push(ms);
afterEach(() => {
  held.times = 0;
  waits.length = 0;
});

describe("whileHeld", () => {
  it("retries EPERM, EBUSY and EACCES after each wait, and passes other errors at once", async () => {
    for (const code of ["EPERM", "EBUSY", "EACCES"]) {
      let calls = 0;
      const op = async () => {
        if (++calls < 3) throw Object.assign(new Error(code), { code });
        return "done";
      };
      await expect(whileHeld("x.csv", op, sleep)).resolves.toBe("done");
    }
    expect(waits).toEqual([...HELD_WAITS_MS.slice(0, 2), ...HELD_WAITS_MS.slice(0, 2), ...HELD_WAITS_MS.slice(0, 2)]);
    waits.length = 0;
    const enoent = Object.assign(new Error("ENOENT"), { code: "ENOENT" });
    await expect(whileHeld("x.csv", () => Promise.reject(enoent), sleep)).rejects.toBe(enoent);
    expect(waits).toEqual([]);
  });

  it("gives up after its waits (1.5 s in all) with an error naming the file and saying to close it", async () => {
    const busy = Object.assign(new Error("EBUSY"), { code: "EBUSY" });
    const err = await whileHeld("C:\\Users\\ann\\results.csv", () => Promise.reject(busy), sleep).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileInUseError);
    expect(waits).toEqual(HELD_WAITS_MS);
    expect(HELD_WAITS_MS.reduce((a, b) => a + b, 0)).toBe(1500);
    expect((err as Error).message).toContain("C:\\Users\\ann\\results.csv");
    expect((err as InstanceType<typeof FileInUseError>).hint).toMatch(/Close it/);
    expect(exitCodeOfError(err)).toBe(1);
    expect(errorJson(err)).toMatchObject({ code: "file_in_use", exit_code: 1, file: "C:\\Users\\ann\\results.csv" });
  });
});

describe("writeFileAtomic", () => {
  it("waits while the file it replaces is held, then replaces it", async () => {
    const path = join(tempDir("shipctl-held-"), "state.json");
    Object.assign(held, { path, times: 2, code: "EBUSY" });
    await writeFileAtomic(path, "new", { sleep });
    expect(readFileSync(path, "utf8")).toBe("new");
    expect(waits).toEqual(HELD_WAITS_MS.slice(0, 2));
  });

  it("names the file when it stays held, and leaves no temporary file", async () => {
    const dir = tempDir("shipctl-held-");
    const path = join(dir, "state.json");
    writeFileSync(path, "old");
    Object.assign(held, { path, times: 99, code: "EPERM" });
    await expect(writeFileAtomic(path, "new", { sleep })).rejects.toBeInstanceOf(FileInUseError);
    expect(readFileSync(path, "utf8")).toBe("old");
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });
});

describe("writeResultsFiles", () => {
  const options = { idColumn: "shipment_id", keepCreated: true, sleep };
  async function run(dir: string) {
    const input = join(dir, "in.csv");
    writeFileSync(input, "title\nA\n");
    const outcomes = new Outcomes();
    outcomes.set(2, { status: "created", label: "A", id: 7 });
    return writeResultsFiles(await openSource(input, dir, Readable.from([])), outcomes, "r.csv", dir, options);
  }

  it("waits while Excel holds the results file, then writes it", async () => {
    const dir = tempDir("shipctl-held-");
    Object.assign(held, { path: join(dir, "r.csv"), times: 3, code: "EPERM" });
    await run(dir);
    expect(readFileSync(join(dir, "r.csv"), "utf8")).toContain("A,7,created");
    expect(waits).toEqual(HELD_WAITS_MS.slice(0, 3));
  });

  it("names the results file when Excel keeps it", async () => {
    const dir = tempDir("shipctl-held-");
    Object.assign(held, { path: join(dir, "r.csv"), times: 99, code: "EPERM" });
    const err = await run(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileInUseError);
    expect((err as Error).message).toContain(join(dir, "r.csv"));
  });
});

describe("checkReplaceable", () => {
  it("passes for a file that can be replaced, and for one not there yet, leaving nothing behind", async () => {
    const dir = tempDir("shipctl-held-");
    writeFileSync(join(dir, "r.csv"), "kept");
    await checkReplaceable(join(dir, "r.csv"), sleep);
    await checkReplaceable(join(dir, "new.csv"), sleep);
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(dir)).toEqual(["r.csv"]);
    expect(readFileSync(join(dir, "r.csv"), "utf8")).toBe("kept");
  });

  it("fails, as the replacing would, when the file cannot be opened for writing", async () => {
    const dir = tempDir("shipctl-held-");
    // A folder where the results file should be: it cannot be replaced, as a held file cannot (EBUSY). Windows may
    // open a folder for writing: the check still says EISDIR there.
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(dir, "r.csv"));
    await expect(checkReplaceable(join(dir, "r.csv"), sleep)).rejects.toMatchObject({ code: "EISDIR" });
  });
});
