import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { targetsFromManifest, targetsFromRoot } from "../../../src/reports/batch-sources.js";
import { defaultJournalPath, ReportJournal } from "../../../src/ledger/report-journal.js";
import { tempDir } from "../../helpers/cli.js";

describe("targetsFromRoot", () => {
  it("takes folders named by id (with an optional label), in natural order, skipping hidden ones", async () => {
    const root = tempDir();
    for (const name of ["10", "9-smith", "100 bronze", ".cache", "misc", "7_x"]) mkdirSync(join(root, name));
    writeFileSync(join(root, "notes.txt"), "x");
    const r = await targetsFromRoot(root);
    expect(r.targets.map((t) => [t.shipmentId, t.label])).toEqual([[7, "7_x"], [9, "9-smith"], [10, "10"], [100, "100 bronze"]]);
    expect(r.problems).toEqual([expect.objectContaining({ file: "misc/", problem: "the folder name does not start with a shipment id" })]);
  });

  it("refuses two folders for one shipment and an empty root", async () => {
    const root = tempDir();
    mkdirSync(join(root, "12"));
    mkdirSync(join(root, "12-again"));
    expect((await targetsFromRoot(root)).problems[0]!.problem).toBe("two folders for shipment 12");
    expect((await targetsFromRoot(tempDir())).problems[0]!.problem).toBe("no shipment folders inside");
    expect((await targetsFromRoot(join(root, "nope"))).problems[0]!.problem).toBe("no such folder");
  });
});

describe("targetsFromManifest", () => {
  it("reads , ; or tab, a BOM, any header spelling, folders relative to the manifest", async () => {
    const dir = tempDir();
    for (const [name, text] of [
      ["a.csv", "shipment_id,folder\n1,one\n2,/abs/two\n"],
      ["b.csv", "\uFEFFShipment ID;Folder\r\n1;one\r\n"],
      ["c.csv", "folder\tshipment-id\none\t1\n"],
    ] as const) {
      writeFileSync(join(dir, name), text);
      const r = await targetsFromManifest(join(dir, name));
      expect(r.problems).toEqual([]);
      expect(r.targets[0]).toEqual({ shipmentId: 1, folder: join(dir, "one"), label: "one" });
    }
    expect((await targetsFromManifest(join(dir, "a.csv"))).targets[1]!.folder).toBe("/abs/two");
  });

  it("names the header it found when a column is missing, and refuses UTF-16", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "m.csv"), "id,path\n1,x\n");
    const r = await targetsFromManifest(join(dir, "m.csv"));
    expect(r.problems[0]!.problem).toContain("found: id, path");
    writeFileSync(join(dir, "u.csv"), Buffer.from("\uFEFFshipment_id,folder\n", "utf16le"));
    expect((await targetsFromManifest(join(dir, "u.csv"))).problems[0]!.fix).toContain("UTF-8");
  });

  it("numbers rows as the spreadsheet does, past a quoted cell with a line break", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "m.csv"), 'shipment_id,folder\n1,"two\nlines"\nx,y\n');
    const r = await targetsFromManifest(join(dir, "m.csv"));
    expect(r.problems).toEqual([expect.objectContaining({ file: `${join(dir, "m.csv")} row 4` })]);
  });
});

describe("ReportJournal", () => {
  it("records states atomically and reads them back per base URL", async () => {
    const dir = tempDir();
    const path = defaultJournalPath({ root: dir });
    expect(path).toBe(join(dir, ".shipctl-report-journal.json"));
    const j = await ReportJournal.open(path, { baseUrl: "http://a", owner: "o1" });
    await Promise.all([j.record(1, 1, "1", "sending"), j.record(2, 1, "2", "sending")]);
    await j.record(1, 1, "1", "stored");
    const again = await ReportJournal.open(path, { baseUrl: "http://a", owner: "o1" });
    expect(again.get(1, 1)?.state).toBe("stored");
    expect(again.get(2, 1)?.state).toBe("sending");
    expect(again.get(1, 2)).toBeUndefined();
    expect((await ReportJournal.open(path, { baseUrl: "http://b", owner: "o1" })).get(1, 1)).toBeUndefined();
    expect(readdirSync(dir)).toEqual([".shipctl-report-journal.json"]);
    expect(JSON.parse(readFileSync(path, "utf8")).kind).toBe("shipctl-report-journal");
  });

  it("puts a manifest's journal beside it, and refuses a damaged journal with a way out", async () => {
    expect(defaultJournalPath({ manifest: "/x/arrivals.csv" })).toBe("/x/arrivals.csv.shipctl-report-journal.json");
    const path = join(tempDir(), "j.json");
    writeFileSync(path, "{ not json");
    await expect(ReportJournal.open(path, { baseUrl: "http://a", owner: "o1" })).rejects.toMatchObject({ exitCode: 2, hint: expect.stringContaining("move it away") });
  });

  it("writes changes made during a write together in the next one, and settles each record only once it is on disk", async () => {
    // A disk that finishes each write when the test says so, keeping what each write held.
    const writes: Array<{ states: string; finish: () => void; fail: (e: Error) => void }> = [];
    const write = (_path: string, text: string) =>
      new Promise<void>((resolve, reject) => {
        const entries = (JSON.parse(text) as { entries: Record<string, { shipment_id: number; state: string }> }).entries;
        const states = Object.values(entries).map((e) => `${e.shipment_id}:${e.state}`).join(" ");
        writes.push({ states, finish: resolve, fail: reject });
      });
    const j = await ReportJournal.open(join(tempDir(), "j.json"), { baseUrl: "http://a", owner: "o1" }, () => new Date(0), write);
    const settled: string[] = [];
    const track = (name: string, p: Promise<void>) => p.then(() => settled.push(name), () => settled.push(`${name} failed`));
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const a = track("a", j.record(1, 1, "1", "sending"));
    await turn();
    expect(writes.map((w) => w.states)).toEqual(["1:sending"]);
    // Two changes while the first write is under way: both wait for one more write, which starts after the first.
    const b = track("b", j.record(2, 1, "2", "sending"));
    const c = track("c", j.record(1, 1, "1", "stored"));
    await turn();
    expect(writes).toHaveLength(1);
    writes[0]!.finish();
    await a;
    expect(settled).toEqual(["a"]);
    await turn();
    expect(writes.map((w) => w.states)).toEqual(["1:sending", "1:stored 2:sending"]);
    // A failed write fails the records waiting for it; the next write still carries every change.
    writes[1]!.fail(new Error("disk full"));
    await Promise.all([b, c]);
    expect(settled).toEqual(["a", "b failed", "c failed"]);
    const d = track("d", j.record(3, 1, "3", "sending"));
    await turn();
    expect(writes[2]!.states).toBe("1:stored 2:sending 3:sending");
    writes[2]!.finish();
    await d;
    expect(settled).toEqual(["a", "b failed", "c failed", "d"]);
  });

  it("note() lets the caller go on; flush() waits for the disk and writes again when the last write failed", async () => {
    const writes: Array<{ states: string; finish: () => void; fail: (e: Error) => void }> = [];
    const write = (_path: string, text: string) =>
      new Promise<void>((resolve, reject) => {
        const entries = (JSON.parse(text) as { entries: Record<string, { shipment_id: number; state: string }> }).entries;
        writes.push({ states: Object.values(entries).map((e) => `${e.shipment_id}:${e.state}`).join(" "), finish: resolve, fail: reject });
      });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const j = await ReportJournal.open(join(tempDir(), "j.json"), { baseUrl: "http://a", owner: "o1" }, () => new Date(0), write);
    j.note(1, 1, "1", "stored");
    expect(j.get(1, 1)?.state).toBe("stored");
    await turn();
    // Noted outcomes wait a little for company: the next record() carries them.
    expect(writes).toHaveLength(0);
    const recorded = j.record(2, 1, "2", "sending").catch((e: Error) => e.message);
    await turn();
    let flushed: string | undefined;
    const flushing = j.flush().then(() => (flushed = "ok"), (e: Error) => (flushed = e.message));
    await turn();
    expect(flushed).toBeUndefined();
    writes[0]!.fail(new Error("disk full"));
    expect(await recorded).toBe("disk full");
    await turn();
    // The changes are not on disk yet: flush writes them again rather than report success.
    expect(writes.map((w) => w.states)).toEqual(["1:stored 2:sending", "1:stored 2:sending"]);
    expect(flushed).toBeUndefined();
    writes[1]!.fail(new Error("still full"));
    await flushing;
    expect(flushed).toBe("still full");
    // Nothing new since a write succeeded: flush has nothing to do.
    j.note(2, 1, "2", "failed");
    const settled = j.flush();
    await turn();
    writes[2]!.finish();
    await settled;
    await j.flush();
    expect(writes).toHaveLength(3);
    expect(writes[2]!.states).toBe("1:stored 2:failed");
  });

  it("writes noted outcomes together on their own after a short wait, or with the next record()", async () => {
    vi.useFakeTimers();
    try {
      const writes: string[] = [];
      const write = async (_path: string, text: string) => {
        const entries = (JSON.parse(text) as { entries: Record<string, { shipment_id: number; state: string }> }).entries;
        writes.push(Object.values(entries).map((e) => `${e.shipment_id}:${e.state}`).join(" "));
      };
      const j = await ReportJournal.open(join(tempDir(), "j.json"), { baseUrl: "http://a", owner: "o1" }, () => new Date(0), write);
      j.note(1, 1, "1", "stored");
      await vi.advanceTimersByTimeAsync(100);
      j.note(2, 1, "2", "stored");
      expect(writes).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(100);
      expect(writes).toEqual(["1:stored 2:stored"]);
      // A record() carries what was noted before it; the timer then finds nothing left to write.
      j.note(3, 1, "3", "failed");
      await j.record(4, 1, "4", "sending");
      await vi.advanceTimersByTimeAsync(500);
      expect(writes).toEqual(["1:stored 2:stored", "1:stored 2:stored 3:failed 4:sending"]);
    } finally {
      vi.useRealTimers();
    }
  });
});
