// The logic of `report upload` against a fake ApiClient: what is sent, skipped, reconciled or refused, and why.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadColours } from "../../../src/output/theme.js";
import type { ApiClient, MultipartBody } from "../../../src/api/client-types.js";
import type { StoredShipment } from "../../../src/contract/index.js";
import { createDeps, DEFAULT_GLOBALS, type BaseDeps } from "../../../src/deps.js";
import { AuthError, ExitCode } from "../../../src/errors.js";
import { createTestIO } from "../../helpers/test-io.js";
import { scriptedPrompter } from "../../helpers/prompter.js";
import { checkFolder } from "../../../src/reports/folder-check.js";
import { InputLedger } from "../../../src/ledger/input-ledger.js";
import { ANSWER_READ_LAG_MS, settleWindowFor } from "../../../src/ledger/settle-window.js";
import { batchExitCode } from "../../../src/reports/upload-batch.js";
import { rerunCommand } from "../../../src/reports/upload-plan.js";
import { byteProgressLine, createByteProgress } from "../../../src/reports/progress.js";
import { sendReport, type ReportOutcome, type SendContext } from "../../../src/reports/send-report.js";
import { parseReportUpload, reportUploadCommand, uploadPlan } from "../../../src/commands/report/report-upload.js";
import { runVerb } from "../../helpers/run-verb.js";
import type { PreparedReport } from "../../../src/reports/prepare-reports.js";
import { fixture, tempDir } from "../../helpers/cli.js";
import { join, resolve, dirname } from "node:path";
import { shellQuote } from "../../../src/output/shell-quote.js";

const NOW = new Date("2025-03-02T12:00:00Z");

class FakeApi {
  reads = 0;
  uploads: MultipartBody[] = [];
  shipment: StoredShipment = { id: 5, title: "T", status: 7, delivered_at: "2025-03-01 12:00:00" };
  readAfterUpload?: Partial<StoredShipment>;
  readError?: unknown;
  uploadError?: unknown;
  /** How much of the body the connection takes before uploadError: all of it, or stopping before its last chunk. */
  sends: "whole" | "cut short" = "whole";
  async getShipment(): Promise<StoredShipment> {
    this.reads++;
    if (this.readError && (this.uploads.length === 0 || this.readAfterUpload === undefined)) throw this.readError;
    return this.uploads.length > 0 && this.readAfterUpload ? { ...this.shipment, ...this.readAfterUpload } : this.shipment;
  }
  async uploadReport(_id: number, _set: number, body: MultipartBody): Promise<void> {
    this.uploads.push(body);
    const stream = body.open().stream;
    // A connection pulls the body as it writes it; one cut short never pulls the closing line.
    for await (const _ of stream) if (this.sends === "cut short") break;
    stream.destroy();
    if (this.uploadError) throw this.uploadError;
  }
  async close(): Promise<void> {}
}

/** An error shaped like those of src/api/api-errors.ts. */
function apiError(message: string, facts: { status?: number; mayHaveArrived: boolean; errors?: Record<string, string[]> }) {
  return Object.assign(new Error(message), facts);
}

async function prepared(folder = "nested"): Promise<PreparedReport> {
  const check = await checkFolder(fixture("photos", folder));
  return { target: { shipmentId: 5, folder: fixture("photos", folder), label: folder }, photos: check.photos, warnings: [] };
}

const ledgers: InputLedger[] = [];
/** What the uploads waited for (ms), in order. */
const slept: number[] = [];
afterEach(async () => {
  await Promise.all(ledgers.splice(0).map((b) => b.close()));
  slept.length = 0;
});

async function openBook(path = join(tempDir(), "r.jsonl")): Promise<InputLedger> {
  const ledger = await InputLedger.open({ SHIPCTL_STATE_DIR: dirname(path) }, {
    kind: "report-upload",
    source: "test",
    target: { baseUrl: "http://x", token: "t" },
    window: settleWindowFor({ baseUrl: "http://x", env: {} }),
  });
  ledgers.push(ledger);
  return ledger;
}

async function ctx(api: FakeApi, extra: Partial<SendContext> = {}): Promise<SendContext & { lines: string[] }> {
  const lines: string[] = [];
  return {
    api: api as unknown as ApiClient,
    set: 1,
    now: () => NOW,
    localNow: () => NOW,
    sleep: async (ms) => void slept.push(ms),
    signal: new AbortController().signal,
    ledger: extra.ledger ?? (await openBook()),
    log: (l) => lines.push(l),
    lines,
    ...extra,
  };
}

describe("sendReport", () => {
  it("tells its progress in the photos' bytes, ending at exactly their size (the body's headers not counted)", async () => {
    const api = new FakeApi();
    const progress: number[] = [];
    const o = await sendReport(await ctx(api, { onProgress: (_id, n) => progress.push(n) }), await prepared());
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(o.bytes);
  });

  it("reads the shipment, then sends one 12-part body with an exact length", async () => {
    const api = new FakeApi();
    const c = await ctx(api);
    const o = await sendReport(c, await prepared());
    expect(o).toMatchObject({ result: "stored", exitCode: 0, window: expect.stringContaining("29d00h left") });
    expect(api.uploads).toHaveLength(1);
    expect(o.bytes).toBeGreaterThan(0);
    expect(api.uploads[0]!.length).toBeGreaterThan(o.bytes);
    expect(c.ledger.row("5/1")).toEqual({ state: "stored", id: 5, at: NOW.toISOString() });
  });

  it("records the intent in flight before sending, and when the last byte left", async () => {
    const api = new FakeApi();
    const c = await ctx(api);
    let before: unknown;
    api.uploadReport = async (_id, _set, body) => {
      before = c.ledger.row("5/1");
      for await (const _ of body.open().stream) {
        // the connection takes it all
      }
      expect(c.ledger.row("5/1")).toMatchObject({ state: "in_flight", sent_at: NOW.toISOString() });
    };
    await sendReport(c, await prepared());
    expect(before).toMatchObject({ state: "in_flight", await_sent: true, at: NOW.toISOString() });
    expect(before).not.toHaveProperty("sent_at");
  });

  it("refuses locally when the window closed, sending nothing", async () => {
    const api = new FakeApi();
    api.shipment = { ...api.shipment, delivered_at: "2025-01-01 00:00:00" };
    const o = await sendReport(await ctx(api), await prepared());
    expect(o).toMatchObject({ result: "refused", exitCode: ExitCode.Rejected });
    expect(o.message).toContain("window closed 30d12h ago");
    expect(api.uploads).toHaveLength(0);
  });

  it("after a lost answer, Filed means stored", async () => {
    const api = new FakeApi();
    api.uploadError = apiError("connection reset", { mayHaveArrived: true });
    api.readAfterUpload = { status: 8 };
    const c = await ctx(api);
    const o = await sendReport(c, await prepared());
    expect(o).toMatchObject({ result: "stored", exitCode: 0 });
    expect(api.reads).toBe(2);
    expect(api.uploads).toHaveLength(1);
    expect(c.ledger.row("5/1")?.state).toBe("stored");
  });

  it("after a lost answer the shipment still Delivered: unknown (7), left in flight with its settle time, not sent again", async () => {
    const api = new FakeApi();
    api.uploadError = apiError("connection reset", { mayHaveArrived: true });
    const c = await ctx(api);
    const o = await sendReport(c, await prepared());
    // The body left at once, within the send bound of its intent: the settle time is the one its claim carries.
    const settleAt = new Date(NOW.getTime() + 2 * c.ledger.window.sendBoundMs + c.ledger.window.applyMs);
    expect(o).toMatchObject({ result: "unknown", exitCode: ExitCode.Unavailable, settleAt });
    expect(o.message).toContain("still Delivered: the service may still be applying it until 2025-03-02 12:05:30 UTC");
    expect(api.uploads).toHaveLength(1);
    expect(c.ledger.row("5/1")).toMatchObject({ state: "in_flight", sent_at: NOW.toISOString(), settle_at: settleAt.toISOString() });
  });

  it("answered 500 by the service itself: read back after a lagging read's allowance, and still Delivered is failed (7), sendable again", async () => {
    const api = new FakeApi();
    api.uploadError = apiError("The service failed", { status: 500, mayHaveArrived: true });
    const c = await ctx(api);
    const o = await sendReport(c, await prepared());
    expect(o).toMatchObject({ result: "failed", exitCode: ExitCode.Unavailable });
    expect(o.message).toContain("not stored: the service answered 500, and the shipment is still Delivered");
    expect(slept).toEqual([ANSWER_READ_LAG_MS]);
    expect(api.reads).toBe(2);
    expect(api.uploads).toHaveLength(1);
    expect(c.ledger.row("5/1")).toMatchObject({ state: "failed" });
  });

  it("answered 500 after the service stored it: the read-back finds it stored", async () => {
    const api = new FakeApi();
    api.uploadError = apiError("The service failed", { status: 500, mayHaveArrived: true });
    api.readAfterUpload = { status: 8 };
    const c = await ctx(api);
    expect(await sendReport(c, await prepared())).toMatchObject({ result: "stored", exitCode: 0 });
    expect(c.ledger.row("5/1")?.state).toBe("stored");
  });

  for (const status of [502, 503, 504]) {
    it(`a gateway's ${status}: unknown (7), in flight for the whole settle time`, async () => {
      const api = new FakeApi();
      api.uploadError = apiError("Bad gateway", { status, mayHaveArrived: true });
      const c = await ctx(api);
      const o = await sendReport(c, await prepared());
      const settleAt = new Date(NOW.getTime() + 2 * c.ledger.window.sendBoundMs + c.ledger.window.applyMs);
      expect(o).toMatchObject({ result: "unknown", exitCode: ExitCode.Unavailable, settleAt });
      expect(slept).toEqual([]);
      expect(c.ledger.row("5/1")).toMatchObject({ state: "in_flight", settle_at: settleAt.toISOString() });
    });
  }

  it("after a lost answer the shipment cannot be read back: unknown (7), and the ledger keeps it in flight", async () => {
    const api = new FakeApi();
    api.uploadError = apiError("connection reset", { mayHaveArrived: true });
    const c = await ctx(api);
    // The first read works, the one after the upload fails.
    const original = api.getShipment.bind(api);
    api.getShipment = async () => {
      if (api.uploads.length > 0) throw apiError("unreachable", { mayHaveArrived: false });
      return original();
    };
    const o = await sendReport(c, await prepared());
    expect(o).toMatchObject({ result: "unknown", exitCode: ExitCode.Unavailable });
    expect(o.message).toContain("could not be read back");
    expect(c.ledger.row("5/1")?.state).toBe("in_flight");
  });

  it("a connection lost before the last byte left is not applied: failed (7), nothing read back, sendable again", async () => {
    const api = new FakeApi();
    api.sends = "cut short";
    api.uploadError = apiError("connection reset", { mayHaveArrived: true });
    const c = await ctx(api);
    const o = await sendReport(c, await prepared());
    expect(o).toMatchObject({ result: "failed", exitCode: ExitCode.Unavailable });
    expect(o.message).toContain("before the whole report was sent");
    expect(api.reads).toBe(1);
    expect(c.ledger.row("5/1")).toMatchObject({ state: "failed" });
  });

  it("a refusal names the side and file behind the service's box.N key", async () => {
    const api = new FakeApi();
    api.uploadError = apiError("The given data was invalid.", { status: 422, mayHaveArrived: false, errors: { "box.2": ["The box.2 field must be a file of type: jpg, png."] } });
    const c = await ctx(api);
    const o = await sendReport(c, await prepared());
    expect(o).toMatchObject({ result: "refused", exitCode: ExitCode.Rejected });
    expect(o.message).toContain("box.2 (box top, box/top.jpg): The box.2 field must be a file of type: jpg, png.");
    expect(c.ledger.row("5/1")).toMatchObject({ state: "failed" });
  });

  it("a ledger entry 'stored' skips the report once the shipment's status confirms it (one read, nothing sent)", async () => {
    const api = new FakeApi();
    api.shipment = { ...api.shipment, status: 8 };
    const ledger = await openBook();
    await ledger.record([["5/1", { state: "stored", id: 5, at: "2025-03-01T10:00:00.000Z" }]]);
    const o = await sendReport(await ctx(api, { ledger }), await prepared());
    expect(o.result).toBe("skipped");
    expect(o.message).toContain("already stored (ledger, 2025-03-01T10:00:00.000Z)");
    expect(api.reads).toBe(1);
    expect(api.uploads).toHaveLength(0);
  });

  it("a ledger entry 'stored' that the shipment contradicts (still Delivered) is sent, and says why", async () => {
    const api = new FakeApi();
    const ledger = await openBook();
    await ledger.record([["5/1", { state: "stored", id: 5, at: "2025-03-01T10:00:00.000Z" }]]);
    const c = await ctx(api, { ledger });
    const o = await sendReport(c, await prepared());
    expect(o.result).toBe("stored");
    expect(api.uploads).toHaveLength(1);
    expect(c.lines.join("\n")).toContain("the ledger says set 1 was stored (2025-03-01T10:00:00.000Z)");
    expect(ledger.row("5/1")?.state).toBe("stored");
  });

  it("a ledger entry 'stored' stands when the shipment cannot be read to confirm it (nothing sent)", async () => {
    const api = new FakeApi();
    api.readError = apiError("connection reset", { mayHaveArrived: false });
    const ledger = await openBook();
    await ledger.record([["5/1", { state: "stored", id: 5 }]]);
    const o = await sendReport(await ctx(api, { ledger }), await prepared());
    expect(o.result).toBe("skipped");
    expect(o.message).toContain("could not be read to confirm");
    expect(api.uploads).toHaveLength(0);
  });

  it("a report an earlier run left in flight is not sent, nor read, while it is settled as such", async () => {
    const api = new FakeApi();
    const settleAt = new Date("2025-03-02T12:05:00Z");
    const o = await sendReport(await ctx(api, { earlier: new Map([["5/1", { state: "in-flight", settleAt }]]) }), await prepared());
    expect(o).toMatchObject({ result: "unknown", exitCode: ExitCode.Unavailable, settleAt });
    expect(o.message).toContain("may still be applying it until 2025-03-02 12:05:00 UTC");
    expect(api.reads).toBe(0);
    expect(api.uploads).toHaveLength(0);
  });

  it("an authentication failure is not about this report: it is thrown", async () => {
    const api = new FakeApi();
    api.readError = new AuthError("token refused");
    await expect(sendReport(await ctx(api), await prepared())).rejects.toBeInstanceOf(AuthError);
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

describe("rerunCommand", () => {
  it("words the command to run again with the same reports and the flags that change what is sent", () => {
    const plan = (args: string[], flags: Parameters<typeof parseReportUpload>[1]) => uploadPlan(parseReportUpload(args, flags), "/work");
    const single = plan(["12", "my photos"], { set: "1", fit: true, wait: false, allowReused: true });
    expect(rerunCommand(single, {})).toBe(`shipctl report upload 12 ${shellQuote("my photos")} --set 1 --fit --no-wait --allow-reused`);
    const batch = plan([], { set: "2", manifest: "m.csv", concurrency: "4", byOrder: true, yes: true });
    const at = (name: string) => shellQuote(resolve("/work", name));
    expect(rerunCommand(batch, { profile: "prod" })).toBe(`shipctl report upload --manifest ${at("m.csv")} --set 2 --by-order --yes --concurrency 4 --profile prod`);
    // Run against the service --base-url named, the command to run again names it too, or it would reach another.
    const viaUrl = rerunCommand(single, { baseUrl: "http://127.0.0.1:8080" });
    expect(viaUrl).toContain("--allow-reused --base-url http://127.0.0.1:8080");
    // A folder whose name starts with "-" would be read as an option: it is written ./-x.
    const dashed = plan(["12", "-photos 12"], { set: "1" });
    expect(rerunCommand(dashed, {})).toBe(`shipctl report upload 12 ${shellQuote("./-photos 12")} --set 1`);
  });
});

describe("run: --by-order confirmation", () => {
  // A terminal: main() would have loaded chalk for it.
  beforeAll(loadColours);
  function deps(answers: boolean[], tty: boolean) {
    const io = createTestIO({ tty });
    const api = new FakeApi();
    const prompter = scriptedPrompter(answers);
    const base: BaseDeps = {
      io,
      prompter,
      clock: { now: () => NOW, sleep: async () => undefined },
      env: { SHIPCTL_CONFIG_DIR: tempDir("shipctl-config-") },
      cwd: process.cwd(),
      signal: new AbortController().signal,
      connect: async () => ({ baseUrl: "http://x", profile: "t", token: "t", tables: async () => { throw new Error("unused"); }, sources: { baseUrl: "env", token: "env", profile: "default" } }),
      makeApi: async () => api as unknown as ApiClient,
    };
    return { d: createDeps(base, { ...DEFAULT_GLOBALS }), io, api, prompter };
  }

  it("asks on a terminal; no means cancelled (exit 3) and nothing sent", async () => {
    const { d, api, prompter } = deps([false], true);
    await expect(runVerb(reportUploadCommand, ["5", fixture("photos/by-order"), "--set", "1", "--by-order"], d)).rejects.toMatchObject({ exitCode: ExitCode.Cancelled });
    expect(prompter.asked).toEqual(["Upload with these sides?"]);
    expect(api.uploads).toHaveLength(0);
  });

  it("yes at the prompt uploads", async () => {
    const { d, api, io } = deps([true], true);
    expect(await runVerb(reportUploadCommand, ["5", fixture("photos/by-order"), "--set", "1", "--by-order"], d)).toBe(0);
    expect(api.uploads).toHaveLength(1);
    expect(io.stderr()).toMatch(/box\s+front\s+box\/IMG_2\.jpg/);
  });

  it("without a terminal, --yes is required (exit 2)", async () => {
    const { d, api } = deps([], false);
    await expect(runVerb(reportUploadCommand, ["5", fixture("photos/by-order"), "--set", "1", "--by-order"], d)).rejects.toMatchObject({ exitCode: ExitCode.Usage, message: expect.stringContaining("--yes") });
    expect(api.uploads).toHaveLength(0);
  });
});

describe("createByteProgress", () => {
  it("on a terminal, draws the shared progress line with bytes summed over uploads, log lines above it, cleared at the end", () => {
    let now = 0;
    const io = createTestIO({ tty: true, columns: 200 });
    const reports = Array.from({ length: 4 }, () => ({ photos: [{ bytes: 2 * 1024 * 1024 }] }));
    const p = createByteProgress(io, reports, () => now);
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
    const p = createByteProgress(io, [{ photos: [{ bytes: 100 }] }]);
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
