// `checkout --quote` and `checkout --from FILE` against the fake service: what is priced, what is paid (nothing, for a
// quote), and that a quote neither writes the checkout ledger nor waits on a checkout that holds it.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { checkoutCommand } from "../../../src/commands/checkout/checkout.js";
import { ExitCode, UsageError } from "../../../src/errors.js";
import { readIdsFrom } from "../../../src/checkout/checkout-from.js";
import { createTestIO } from "../../helpers/test-io.js";
import { ShipmentStatus } from "../../../src/contract/index.js";
import { openCheckoutLedger } from "../../../src/checkout/checkout-ledger.js";
import { tempDir } from "../../helpers/cli.js";
import { runVerb } from "../../helpers/run-verb.js";
import { checkoutRecordPath, exitOf, fakeService, harness } from "./fake.js";

const posts = (calls: string[]) => calls.filter((c) => c.startsWith("POST"));

describe("checkout --quote", () => {
  it("prices and shows the table without --yes or a terminal; pays nothing; writes no ledger", async () => {
    const svc = fakeService([1, 2, 3], [], { 3: { status: ShipmentStatus.Confirmed } });
    const h = harness(svc, { tty: false });
    const r = await exitOf(runVerb(checkoutCommand, ["1", "2", "3", "--quote"], h.deps));
    expect(r.code).toBe(0);
    expect(svc.calls.filter((c) => !c.startsWith("GET /shipments"))).toEqual(["GET /checkout 1,2"]);
    expect(h.asked).toEqual([]);
    expect(h.io.stdout()).toMatch(/Total \(2 shipments, 1 session\)\s+\$20\.03$/m);
    expect(h.io.stderr()).toContain("shipment 3 is already Confirmed: not priced");
    expect(h.io.stderr()).toContain("quote: $20.03 for 2 shipments; nothing was charged");
    expect(existsSync(checkoutRecordPath(h.deps.env, "http://127.0.0.1:1"))).toBe(false);
  });

  it("--json: snake_case document with the sessions in cents, the total and what is already paid", async () => {
    const svc = fakeService([1, 2], [], { 2: { status: ShipmentStatus.Confirmed } });
    const h = harness(svc, { globals: { json: true } });
    expect((await exitOf(runVerb(checkoutCommand, ["1", "2", "--quote"], h.deps))).code).toBe(0);
    expect(JSON.parse(h.io.stdout())).toEqual({ status: "quoted", sessions: [{ shipments: { "1": 1001 }, total: 1001 }], total: 1001, already_paid: [2] });
  });

  it("does not wait for a checkout that holds the ledger's lock", async () => {
    const svc = fakeService([1]);
    const h = harness(svc);
    const held = await openCheckoutLedger(harness(fakeService([]), { configDir: h.configDir }).deps);
    try {
      const r = await exitOf(runVerb(checkoutCommand, ["1", "--quote"], h.deps));
      expect(r.code).toBe(0);
      expect(h.io.stderr()).not.toContain("Another checkout is running");
    } finally {
      await held.close();
    }
  });

  it("--max-total: shows the quote, then exit 2 naming the total (as the checkout would refuse it)", async () => {
    const svc = fakeService([1, 2]);
    const h = harness(svc);
    const r = await exitOf(runVerb(checkoutCommand, ["1", "2", "--quote", "--max-total", "20"], h.deps));
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.error?.message).toBe("total $20.03 exceeds --max-total $20.00");
    expect(h.io.stdout()).toContain("$20.03");
    expect(posts(svc.calls)).toEqual([]);
  });
});

describe("checkout --from FILE", () => {
  const results = (text: string) => {
    const path = join(tempDir(), "results.csv");
    writeFileSync(path, text);
    return path;
  };

  it("pays the created and skipped rows' shipments, says which rows were left out and why", async () => {
    const svc = fakeService([4, 5]);
    const h = harness(svc);
    const file = results("title,shipment_id,status,error\nA,4,created,\nB,,failed,title: required\nC,5,skipped,\n");
    const r = await exitOf(runVerb(checkoutCommand, ["--from", file, "--yes"], h.deps));
    expect(r.code).toBe(0);
    expect(svc.charges).toEqual([[4, 5]]);
    expect(h.io.stderr()).toContain(`${file}: left out 1 row: 1 failed (row 3)`);
  });

  it("a file with no created shipment is refused before any request (exit 2)", async () => {
    const svc = fakeService([]);
    const h = harness(svc);
    const file = results("title,shipment_id,status\nA,,failed\nB,,failed\n");
    const r = await exitOf(runVerb(checkoutCommand, ["--from", file, "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.error?.message).toBe(`${file}: no row has a created shipment: 2 failed (rows 2 and 3)`);
    expect(h.apiRequested()).toBe(false);
  });

  it("a missing file is refused naming it (exit 2)", async () => {
    const h = harness(fakeService([]));
    const r = await exitOf(runVerb(checkoutCommand, ["--from", "/nonexistent/r.csv", "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.error?.message).toBe("no such file: /nonexistent/r.csv");
  });

  it("--from - without --yes is refused before reading stdin: stdin carries the ids, not an answer", async () => {
    const h = harness(fakeService([1]), { tty: true });
    const r = await exitOf(runVerb(checkoutCommand, ["--from", "-"], h.deps));
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.error?.hint).toContain("--from - reads the ids from stdin");
    expect(h.apiRequested()).toBe(false);
  });

  it("--from - a person is typing at a terminal: Ctrl-C ends the read (exit 130), not waiting for Ctrl-D", async () => {
    const stdin = new PassThrough();
    stdin.write("12\n");
    const stop = new AbortController();
    const io = { ...createTestIO({ tty: true }), stdin };
    const reading = readIdsFrom("-", { io, cwd: tempDir(), signal: stop.signal });
    setTimeout(() => stop.abort(new Error("Ctrl-C")), 20);
    const message = "interrupted while reading stdin; nothing was sent";
    await expect(reading).rejects.toMatchObject({ exitCode: 130, message });
  });

  it("--from - of separators alone is refused (exit 2), not read as no shipments to pay", async () => {
    for (const stdin of [",", " , ,\n"]) {
      const err = await readIdsFrom("-", { io: createTestIO({ stdin }), cwd: tempDir() }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
    }
    const fromStdin = (stdin: string) => readIdsFrom("-", { io: createTestIO({ stdin }), cwd: tempDir() });
    await expect(fromStdin(",\n")).rejects.toThrow("stdin holds separators but no shipment id");
    expect(await fromStdin("12,\n,13")).toEqual([12, 13]);
  });

  const resultsOf = (ids: number[]) => results(`title,shipment_id,status\n${ids.map((id) => `A${id},${id},created`).join("\n")}\n`);
  const paidBatch = (ids: number[]) => fakeService(ids, [], Object.fromEntries(ids.map((id) => [id, { status: ShipmentStatus.Confirmed }])));

  it("a paid batch run again says so in one line with the count and the first ids, not one line per shipment", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => i + 1);
    const h = harness(paidBatch(ids));
    const r = await exitOf(runVerb(checkoutCommand, ["--from", resultsOf(ids), "--yes"], h.deps));
    expect(r.code).toBe(0);
    const lines = h.io.stderr().split("\n").filter((l) => l.includes("already"));
    expect(lines).toEqual(["12 shipments are already Confirmed (paid before this run): skipped: 1, 2, 3, 4, 5 and 7 more", "nothing to pay: all 12 shipments are already paid"]);
  });

  it("--quote of a paid batch: one line too", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => i + 1);
    const h = harness(paidBatch(ids));
    const r = await exitOf(runVerb(checkoutCommand, ["--from", resultsOf(ids), "--quote"], h.deps));
    expect(r.code).toBe(0);
    expect(h.io.stderr().split("\n").filter((l) => l.includes("already"))).toEqual([
      "12 shipments are already Confirmed: not priced: 1, 2, 3, 4, 5 and 7 more",
      "nothing to price: all 12 shipments are already paid",
    ]);
  });

  it("a declined card: the rerun command repeats --from FILE, not the ids it held", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => i + 1);
    const file = resultsOf(ids);
    const h = harness(fakeService(ids, ["402"]), { globals: { json: true } });
    const r = await exitOf(runVerb(checkoutCommand, ["--from", file, "--yes"], h.deps));
    expect(r.code).toBe(ExitCode.Payment);
    expect(r.error?.hint?.endsWith(`\n  shipctl checkout --from ${file} --yes`)).toBe(true);
    expect(JSON.parse(h.io.stdout()).rerun).toBe(`shipctl checkout --from ${file} --yes`);
  });
});
