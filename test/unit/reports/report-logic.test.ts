// The logic of `report upload` against a fake ApiClient: what is sent, skipped, reconciled or refused, and why.
import { beforeAll, describe, expect, it } from "vitest";
import { loadColours } from "../../../src/output/theme.js";
import type { ApiClient, MultipartBody } from "../../../src/api/types.js";
import type { StoredShipment } from "../../../src/contract/index.js";
import { AuthError, ExitCode } from "../../../src/errors.js";
import { createTestIO } from "../../helpers/test-io.js";
import { testDeps } from "../../helpers/deps.js";
import { checkFolder } from "../../../src/reports/folder-check.js";
import { ReportJournal } from "../../../src/ledger/report-journal.js";
import { batchExitCode } from "../../../src/reports/upload-batch.js";
import { parseUploadOptions } from "../../../src/reports/upload-options.js";
import { byteProgressLine, createByteProgress } from "../../../src/reports/byte-progress.js";
import { sendReport, type ReportOutcome, type SendContext } from "../../../src/reports/send-report.js";
import { run } from "../../../src/commands/report/upload.js";
import type { PreparedReport } from "../../../src/reports/prepare-reports.js";
import { fixture, tempDir } from "../../helpers/cli.js";
import { join } from "node:path";

const NOW = new Date("2025-03-02T12:00:00Z");

class FakeApi {
  reads = 0;
  uploads: MultipartBody[] = [];
  shipment: StoredShipment = { id: 5, title: "T", status: 7, delivered_at: "2025-03-01 12:00:00" };
  readAfterUpload?: Partial<StoredShipment>;
  readError?: unknown;
  uploadError?: unknown;
  async getShipment(): Promise<StoredShipment> {
    this.reads++;
    if (this.readError && (this.uploads.length === 0 || this.readAfterUpload === undefined)) throw this.readError;
    return this.uploads.length > 0 && this.readAfterUpload ? { ...this.shipment, ...this.readAfterUpload } : this.shipment;
  }
  async uploadReport(_id: number, _set: number, body: MultipartBody): Promise<void> {
    this.uploads.push(body);
    if (this.uploadError) throw this.uploadError;
  }
  async close(): Promise<void> {}
}

/** An error shaped like those of src/api/errors.ts. */
function apiError(message: string, facts: { status?: number; mayHaveArrived: boolean; errors?: Record<string, string[]> }) {
  return Object.assign(new Error(message), facts);
}

async function prepared(folder = "nested"): Promise<PreparedReport> {
  const check = await checkFolder(fixture("photos", folder));
  return { target: { shipmentId: 5, folder: check.root, label: folder }, photos: check.photos, warnings: [] };
}

function ctx(api: FakeApi, extra: Partial<SendContext> = {}): SendContext & { lines: string[] } {
  const lines: string[] = [];
  return { api: api as unknown as ApiClient, set: 1, now: () => NOW, signal: new AbortController().signal, log: (l) => lines.push(l), lines, ...extra };
}

describe("sendReport", () => {
  it("reads the shipment, then sends one 12-part body with an exact length", async () => {
    const api = new FakeApi();
    const c = ctx(api);
    const o = await sendReport(c, await prepared());
    expect(o).toMatchObject({ result: "stored", exitCode: 0, window: expect.stringContaining("29 days left") });
    expect(api.uploads).toHaveLength(1);
    expect(o.bytes).toBeGreaterThan(0);
    expect(api.uploads[0]!.length).toBeGreaterThan(o.bytes);
  });

  it("refuses locally when the window closed, sending nothing", async () => {
    const api = new FakeApi();
    api.shipment = { ...api.shipment, delivered_at: "2025-01-01 00:00:00" };
    const o = await sendReport(ctx(api), await prepared());
    expect(o).toMatchObject({ result: "refused", exitCode: ExitCode.Rejected });
    expect(o.message).toContain("window closed 30 days");
    expect(api.uploads).toHaveLength(0);
  });

  it("after a lost answer, Filed means stored", async () => {
    const api = new FakeApi();
    api.uploadError = apiError("connection reset", { mayHaveArrived: true });
    api.readAfterUpload = { status: 8 };
    const journal = await ReportJournal.open(join(tempDir(), "j.json"), { baseUrl: "http://x", owner: "o1" }, () => NOW);
    const o = await sendReport(ctx(api, { journal }), await prepared());
    expect(o).toMatchObject({ result: "stored", exitCode: 0 });
    expect(api.reads).toBe(2);
    expect(api.uploads).toHaveLength(1);
    expect(journal.get(5, 1)?.state).toBe("stored");
  });

  it("after a lost answer the shipment cannot be read back: failed (7), and the journal keeps 'sending'", async () => {
    const api = new FakeApi();
    api.uploadError = apiError("connection reset", { mayHaveArrived: true });
    const journal = await ReportJournal.open(join(tempDir(), "j.json"), { baseUrl: "http://x", owner: "o1" }, () => NOW);
    const c = ctx(api, { journal });
    // The first read works, the one after the upload fails.
    const original = api.getShipment.bind(api);
    api.getShipment = async () => {
      if (api.uploads.length > 0) throw apiError("unreachable", { mayHaveArrived: false });
      return original();
    };
    const o = await sendReport(c, await prepared());
    expect(o).toMatchObject({ result: "failed", exitCode: ExitCode.Unavailable });
    expect(o.message).toContain("could not be read back");
    expect(journal.get(5, 1)?.state).toBe("sending");
  });

  it("a refusal names the side and file behind the service's box.N key", async () => {
    const api = new FakeApi();
    api.uploadError = apiError("The given data was invalid.", { status: 422, mayHaveArrived: false, errors: { "box.2": ["The box.2 field must be a file of type: jpg, png."] } });
    const o = await sendReport(ctx(api), await prepared());
    expect(o).toMatchObject({ result: "refused", exitCode: ExitCode.Rejected });
    expect(o.message).toContain("box.2 (box top, box/top.jpg): The box.2 field must be a file of type: jpg, png.");
  });

  it("a journal entry 'stored' skips the report once the shipment's status confirms it (one read, nothing sent)", async () => {
    const api = new FakeApi();
    api.shipment = { ...api.shipment, status: 8 };
    const journal = await ReportJournal.open(join(tempDir(), "j.json"), { baseUrl: "http://x", owner: "o1" }, () => NOW);
    await journal.record(5, 1, "nested", "stored");
    const o = await sendReport(ctx(api, { journal }), await prepared());
    expect(o.result).toBe("skipped");
    expect(o.message).toContain("already stored (journal");
    expect(api.reads).toBe(1);
    expect(api.uploads).toHaveLength(0);
  });

  it("a journal entry 'stored' that the shipment contradicts (still Delivered) is sent, and says why", async () => {
    const api = new FakeApi();
    const journal = await ReportJournal.open(join(tempDir(), "j.json"), { baseUrl: "http://x", owner: "o1" }, () => NOW);
    await journal.record(5, 1, "nested", "stored");
    const c = ctx(api, { journal });
    const o = await sendReport(c, await prepared());
    expect(o.result).toBe("stored");
    expect(api.uploads).toHaveLength(1);
    expect(c.lines.join("\n")).toContain("the journal says set 1 was stored");
    expect(journal.get(5, 1)?.state).toBe("stored");
  });

  it("a journal entry 'stored' stands when the shipment cannot be read to confirm it (nothing sent)", async () => {
    const api = new FakeApi();
    api.readError = apiError("connection reset", { mayHaveArrived: false });
    const journal = await ReportJournal.open(join(tempDir(), "j.json"), { baseUrl: "http://x", owner: "o1" }, () => NOW);
    await journal.record(5, 1, "nested", "stored");
    const o = await sendReport(ctx(api, { journal }), await prepared());
    expect(o.result).toBe("skipped");
    expect(o.message).toContain("could not be read to confirm");
    expect(api.uploads).toHaveLength(0);
  });

  it("an authentication failure is not about this report: it is thrown", async () => {
    const api = new FakeApi();
    api.readError = new AuthError("token refused");
    await expect(sendReport(ctx(api), await prepared())).rejects.toBeInstanceOf(AuthError);
  });
});

describe("batchExitCode", () => {
  const o = (exitCode: number) => ({ exitCode }) as ReportOutcome;
  it("0 all stored, 8 some, the shared code when none", () => {
    expect(batchExitCode([o(0), o(0)])).toBe(0);
    expect(batchExitCode([o(0), o(6)])).toBe(8);
    expect(batchExitCode([o(6), o(6)])).toBe(6);
    expect(batchExitCode([o(6), o(7)])).toBe(8);
  });
});

describe("parseUploadOptions", () => {
  const cwd = "/work";
  it("reads one folder or a batch, with defaults", () => {
    expect(parseUploadOptions(["12", "photos"], { set: "1" }, cwd)).toMatchObject({
      set: 1,
      source: { kind: "single", shipmentId: 12, folder: "/work/photos", label: "photos" },
      concurrency: 2,
    });
    expect(parseUploadOptions([], { set: "2", batch: "r", concurrency: "4" }, cwd)).toMatchObject({ source: { kind: "batch", root: "/work/r" }, concurrency: 4 });
  });

  it.each([
    [[], { set: "1" }, "give the shipment id and the photo folder"],
    [["12", "p"], {}, "--set is required"],
    [["12", "p"], { set: "3" }, "the set is 1"],
    [["x", "p"], { set: "1" }, "positive whole number"],
    [["12"], { set: "1", batch: "r" }, "drop the arguments"],
    [[], { set: "1", batch: "r", manifest: "m.csv" }, "not both"],
    [[], { set: "1", batch: "r", concurrency: "0" }, "--concurrency 0"],
    [["12", "p"], { set: "1", preview: "x.pdf" }, ".html or .png"],
    [[], { set: "1", batch: "r", preview: "x.png" }, "FILE.html"],
    [["12", "p"], { set: "1", journal: "j" }, "--journal belongs to batches"],
  ])("refuses %j %j", (args, flags, message) => {
    expect(() => parseUploadOptions(args as string[], flags, cwd)).toThrow(message);
  });
});

describe("run: --by-order confirmation", () => {
  // A terminal: main() would have loaded chalk for it.
  beforeAll(loadColours);
  function deps(answers: boolean[], tty: boolean) {
    const api = new FakeApi();
    const { deps: d, io, prompter } = testDeps({ client: api, now: NOW, answers, tty });
    return { d, io, api, prompter };
  }

  it("asks on a terminal; no means cancelled (exit 3) and nothing sent", async () => {
    const { d, api, prompter } = deps([false], true);
    await expect(run(d, ["5", fixture("photos/by-order")], { set: "1", byOrder: true })).rejects.toMatchObject({ exitCode: ExitCode.Cancelled });
    expect(prompter.asked).toEqual(["Upload with these sides?"]);
    expect(api.uploads).toHaveLength(0);
  });

  it("yes at the prompt uploads", async () => {
    const { d, api, io } = deps([true], true);
    expect(await run(d, ["5", fixture("photos/by-order")], { set: "1", byOrder: true })).toBe(0);
    expect(api.uploads).toHaveLength(1);
    expect(io.stderr()).toMatch(/box\s+front\s+box\/IMG_2\.jpg/);
  });

  it("without a terminal, --yes is required (exit 2)", async () => {
    const { d, api } = deps([], false);
    await expect(run(d, ["5", fixture("photos/by-order")], { set: "1", byOrder: true })).rejects.toMatchObject({ exitCode: ExitCode.Usage, message: expect.stringContaining("--yes") });
    expect(api.uploads).toHaveLength(0);
  });
});

describe("createByteProgress", () => {
  it("on a terminal, draws the shared progress line with bytes summed over uploads, log lines above it, cleared at the end", () => {
    let now = 0;
    const io = createTestIO({ tty: true, columns: 200 });
    const p = createByteProgress(io, { totalBytes: 8 * 1024 * 1024, totalReports: 4, now: () => now });
    now = 1000;
    p.sent(1, 1024 * 1024);
    p.sent(2, 512 * 1024);
    expect(io.stderr()).toBe("\r\x1b[Kreports 0/4 · 1.00 MiB of 8.00 MiB · 1.00 MiB/s");
    now = 2000;
    // Running totals per upload: the second call for upload 1 adds only what is new.
    p.sent(1, 2 * 1024 * 1024);
    p.reportDone();
    expect(io.stderr().endsWith("\r\x1b[Kreports 0/4 · 2.50 MiB of 8.00 MiB · 1.25 MiB/s")).toBe(true);
    p.log("Shipment 5: refused\n");
    expect(io.stderr().endsWith("\r\x1b[KShipment 5: refused\n\r\x1b[Kreports 1/4 · 2.50 MiB of 8.00 MiB · 1.25 MiB/s")).toBe(true);
    p.finish();
    expect(io.stderr().endsWith("\r\x1b[K")).toBe(true);
    expect(io.stdout()).toBe("");
  });

  it("without a terminal draws nothing and passes log lines through", () => {
    const io = createTestIO({ tty: false });
    const p = createByteProgress(io, { totalBytes: 100, totalReports: 1 });
    p.sent(1, 50);
    p.reportDone();
    p.log("a line\n");
    p.finish();
    expect(io.stderr()).toBe("a line\n");
  });
});

describe("byteProgressLine", () => {
  it("shows reports, bytes and rate", () => {
    expect(byteProgressLine({ bytes: 2 * 1024 * 1024, reports: 1, totalBytes: 8 * 1024 * 1024, totalReports: 4, elapsedMs: 1000 })).toBe(
      "reports 1/4 · 2.00 MiB of 8.00 MiB · 2.00 MiB/s",
    );
  });
});
