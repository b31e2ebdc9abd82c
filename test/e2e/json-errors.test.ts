// Errors as JSON (README "Errors as JSON"): with --json, stdout always holds one document, and a failure is in it as
// {"error": {code, exit_code, message, hint, ...}}: alone when the command failed before printing anything, inside the
// command's own document when it failed after doing work. stderr keeps the message for people.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "../helpers/cli.js";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { seedShipments } from "../helpers/seed.js";
import { COLUMNS, shipmentRows, toCsv } from "../../fixtures/csv/generate.mjs";
import { writeRows } from "./batch/helpers.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("--json failures", () => {
  it("shipment get of a missing id: stdout is the error document, exit 6 as before, the message still on stderr", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["shipment", "get", "9999", "--json"], { sandbox: org });
    expect(r.exitCode).toBe(6);
    expect(JSON.parse(r.stdout)).toEqual({
      error: expect.objectContaining({ code: "not_found", exit_code: 6, message: expect.stringMatching(/9999/), method: "GET", http_status: 404 }),
    });
    expect(Object.keys(JSON.parse(r.stdout).error).slice(0, 4)).toEqual(["code", "exit_code", "message", "hint"]);
    expect(r.stderr).toMatch(/^Error: .*9999/m);
  });

  it("checkout without --yes and without a terminal: a usage_error document, exit 2, nothing sent", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["checkout", "1", "--json"], { sandbox: org });
    expect(r.exitCode).toBe(2);
    const doc = JSON.parse(r.stdout);
    expect(doc.error).toMatchObject({ code: "usage_error", exit_code: 2, message: expect.stringContaining("--yes") });
    expect(r.stderr).toContain("pass --yes");
    expect(await org.control.requests({ path: "/api/v1/**" })).toEqual([]);
  });

  it("a command line commander refuses: a usage_error document, exit 2", async () => {
    const r = await runCli(["shipment", "get", "1", "--no-such-flag", "--json"]);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "usage_error", exit_code: 2, message: "unknown option '--no-such-flag'" });
    expect(r.stderr).toContain("unknown option '--no-such-flag'");
  });

  it("not logged in: an auth_required document with the hint, exit 4", async () => {
    const r = await runCli(["list", "shipments", "--json"]);
    expect(r.exitCode).toBe(4);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "auth_required", exit_code: 4, hint: expect.stringContaining("shipctl login") });
  });

  it("a batch partly done: its usual document with the error inside (partial, exit 8)", async () => {
    const org = await sb.newOrg();
    const ids = await seedShipments(org, 1);
    const rows = shipmentRows(2, { seed: 31, titlePrefix: "JsonErr" }).map((row, i) => ({ ...row, id: String(ids[i] ?? 99999) }));
    const path = join(tempDir(), "partly.csv");
    writeFileSync(path, toCsv(rows, { columns: ["id", ...COLUMNS] }));
    const r = await runCli(["shipment", "update", "--csv", path, "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(8);
    const doc = JSON.parse(r.stdout);
    expect(doc.counts).toMatchObject({ rows: 2, updated: 1, failed: 1 });
    expect(doc.error).toEqual({ code: "partial", exit_code: 8, message: "1 updated, 1 failed (of 2 rows).", hint: null });
    expect(Object.keys(doc).at(-1)).toBe("error");
  });

  it("a batch stopped by the service (no subscription): the rows' document with the stopping error inside, exit 4", async () => {
    const org = await sb.newOrg();
    await org.control.setSubscription(false);
    const path = writeRows(shipmentRows(3, { seed: 32, titlePrefix: "NoSub" }));
    // --no-verify: the refusal then comes from the create request itself, after the rows were read and sent.
    // SHIPCTL_LOOK_DAYS=0: without the look at the service before a create (its list read would meet the 402 first).
    const r = await runCli(["shipment", "create", "--csv", path, "--no-verify", "--json"], { sandbox: org, env: { SHIPCTL_LOOK_DAYS: "0" } });
    expect(r.exitCode, r.stderr).toBe(4);
    const doc = JSON.parse(r.stdout);
    expect(doc.counts).toMatchObject({ rows: 3, created: 0 });
    expect(doc.error).toMatchObject({ code: "no_subscription", exit_code: 4, method: "POST", http_status: 402 });
    expect(r.stderr).toMatch(/^Error: /m);
  });

  it("a dry run with a row whose address the service refuses: the dry-run document with the error inside, exit 8 as the run's", async () => {
    const org = await sb.newOrg();
    const rows = shipmentRows(2, { seed: 33, titlePrefix: "DryErr" });
    // A US destination on a PO box: carriers refuse it, so the sandbox's verifier does.
    rows[1] = { ...rows[1]!, destination_line_1: "PO Box 123", destination_line_2: "", destination_city: "Portland", destination_region: "OR", destination_post_code: "97201", destination_country: "US" };
    const r = await runCli(["shipment", "create", "--csv", writeRows(rows), "--dry-run", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(8);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ dry_run: true, counts: { would_send: 1, blocked: 1 } });
    expect(doc.error).toEqual({ code: "partial", exit_code: 8, message: expect.stringMatching(/^Dry run: 1 row would be sent/), hint: null });
  });

  it("a declined card: checkout's document with payment_declined inside, exit 5", async () => {
    const org = await sb.newOrg();
    const ids = await seedShipments(org, 1);
    await org.control.setPaymentMethod("declining");
    const r = await runCli(["checkout", String(ids[0]), "--yes", "--json"], { sandbox: org });
    expect(r.exitCode).toBe(5);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ status: "payment-refused", unpaid: ids });
    expect(doc.error).toMatchObject({ code: "payment_declined", exit_code: 5, http_status: 402 });
  });

  it("a run that succeeds has no error key", async () => {
    const org = await sb.newOrg();
    const ids = await seedShipments(org, 1);
    const r = await runCli(["shipment", "get", String(ids[0]), "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).not.toHaveProperty("error");
  });
});

describe("--format json and NDJSON failures before anything was printed", () => {
  const lines = (stdout: string) => stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as { error: Record<string, unknown> });

  it("due --ndjson with a refused token: the stream is one {\"error\"} line, exit 4, as list's and watch's are", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["due", "--ndjson"], { sandbox: org, env: { SHIPCTL_TOKEN: "refused-token" } });
    expect(r.exitCode, r.stderr).toBe(4);
    expect(lines(r.stdout)).toEqual([{ error: expect.objectContaining({ code: "unauthorized", exit_code: 4, http_status: 401 }) }]);
  });

  it("--format json, short for --json: a usage error is the error document (stdout was empty)", async () => {
    const r = await runCli(["list", "shipments", "--format", "json", "--status", "nope"]);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ error: expect.objectContaining({ code: "usage_error", exit_code: 2 }) });
  });

  it("--ndjson with a bad flag value or id: one {\"error\"} line, exit 2", async () => {
    for (const args of [["list", "shipments", "--ndjson", "--page", "0"], ["due", "--format", "ndjson", "--within", "xyz"], ["watch", "abc", "--ndjson"]]) {
      const r = await runCli(args);
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(lines(r.stdout), args.join(" ")).toEqual([{ error: expect.objectContaining({ code: "usage_error", exit_code: 2 }) }]);
    }
  });
});
