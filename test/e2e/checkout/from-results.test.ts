// shipctl checkout --from and --quote, the built binary against the sandbox: a batch's results file is paid once,
// a quote charges nothing and predicts the total, ids come from stdin too, and bad sources are refused by name.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ShipmentStatus } from "../../../src/contract/index.js";
import { fixture, runCli, tempDir } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { seedShipments, statusOf } from "../../helpers/seed.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const posts = (org: OrgTarget) => org.control.requests({ method: "POST", path: "/api/v1/checkout" });

/** bad-rows.csv with --skip-invalid: 3 rows created, 22 failed; the results file and the config folder it used. */
async function batch(org: OrgTarget) {
  const dir = tempDir();
  const configDir = tempDir("shipctl-config-");
  const results = join(dir, "r.csv");
  const r = await runCli(["shipment", "create", "--csv", fixture("csv", "bad-rows.csv"), "--skip-invalid", "--results", results, "--json"], {
    sandbox: org,
    configDir,
  });
  expect(r.exitCode, r.stderr).toBe(8);
  const created: number[] = JSON.parse(r.stdout).created.map((c: { shipment_id: number }) => c.shipment_id);
  expect(created).toHaveLength(3);
  return { dir, configDir, results, created };
}

describe("checkout --from a results file", () => {
  it("quote, then pay: the quote charges nothing and predicts the total; the checkout pays the created rows once", async () => {
    const org = await sb.newOrg();
    const { configDir, results, created } = await batch(org);

    const quote = await runCli(["checkout", "--from", results, "--quote", "--json"], { sandbox: org, configDir });
    expect(quote.exitCode, quote.stderr).toBe(0);
    const quoted = JSON.parse(quote.stdout);
    expect(quoted.status).toBe("quoted");
    expect(Object.keys(quoted.sessions[0].shipments).map(Number)).toEqual(created);
    expect(quote.stderr).toContain("left out 22 rows: 22 failed (rows 3, 4, 5, 6, 7 and 17 more)");
    expect(await posts(org)).toHaveLength(0);
    expect(await org.control.charges()).toEqual([]);

    const paid = await runCli(["checkout", "--from", results, "--yes", "--json"], { sandbox: org, configDir });
    expect(paid.exitCode, paid.stderr).toBe(0);
    const doc = JSON.parse(paid.stdout);
    expect(doc).toMatchObject({ status: "paid", paid: created, total: quoted.total, charged: quoted.total });
    const charges = await org.control.charges();
    expect(charges).toHaveLength(1);
    expect(charges[0]!.total).toBe(quoted.total);
    for (const id of created) expect(await statusOf(org, id)).toBe(ShipmentStatus.Confirmed);

    const again = await runCli(["checkout", "--from", results, "--yes", "--json"], { sandbox: org, configDir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: "nothing-to-pay", paid: [], already_paid: created });
    expect(await org.control.charges()).toHaveLength(1);
    expect(await posts(org)).toHaveLength(1);
  });

  it("reads a spreadsheet re-save of the results file (BOM, ';', CRLF) the same", async () => {
    const org = await sb.newOrg();
    const { dir, results, created } = await batch(org);
    const [header, ...rows] = parse(readFileSync(results, "utf8").replace(/^\ufeff/, "")) as string[][];
    // Only the columns checkout reads, in another order, as a person might keep them.
    const idAt = header!.indexOf("shipment_id");
    const statusAt = header!.indexOf("status");
    const resaved = join(dir, "resaved.csv");
    const lines = [header!, ...rows].map((c) => `${c[statusAt]};Note;${c[idAt]}`);
    writeFileSync(resaved, `\ufeff${lines.join("\r\n")}\r\n`);
    expect(readFileSync(resaved, "utf8")).toMatch(/^\ufeffstatus;Note;shipment_id\r\n/);
    const r = await runCli(["checkout", "--from", resaved, "--quote", "--json"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout).sessions[0].shipments).map(Number)).toEqual(created);
  });

  it("the price table for people with --quote, and no --yes needed without a terminal", async () => {
    const org = await sb.newOrg();
    const ids = await seedShipments(org, 2);
    const r = await runCli(["checkout", ...ids.map(String), "--quote"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^SESSION\s+ID\s+TITLE\s+PRICE$/m);
    expect(r.stdout).toMatch(/Total \(2 shipments, 1 session\)\s+\$[\d,]+\.\d\d$/m);
    expect(r.stderr).toMatch(/quote: \$[\d,]+\.\d\d for 2 shipments; nothing was charged/);
    expect(await posts(org)).toHaveLength(0);
  });
});

describe("checkout --from - (stdin)", () => {
  it("plain ids, separated by spaces, commas and lines: paid once", async () => {
    const org = await sb.newOrg();
    const ids = await seedShipments(org, 3);
    const r = await runCli(["checkout", "--from", "-", "--yes", "--json"], { sandbox: org, stdin: `${ids[0]} ${ids[1]},\n${ids[2]}\n` });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "paid", paid: ids });
    expect(await org.control.charges()).toHaveLength(1);
  });

  it("a results CSV piped in", async () => {
    const org = await sb.newOrg();
    const { results, created } = await batch(org);
    const r = await runCli(["checkout", "--from", "-", "--quote", "--json"], { sandbox: org, stdin: readFileSync(results) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout).sessions[0].shipments).map(Number)).toEqual(created);
    expect(r.stderr).toContain("stdin: left out 22 rows");
  });

  it("without --yes: refused before reading stdin (it carries the ids, not an answer), exit 2", async () => {
    const org = await sb.newOrg();
    const r = await runCli(["checkout", "--from", "-"], { sandbox: org, stdin: "1 2\n" });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("pass --yes");
    expect(await org.control.requests({})).toHaveLength(0);
  });
});

describe("checkout --from: refusals name the file, row and column (exit 2, nothing sent)", () => {
  const file = (text: string) => {
    const path = join(tempDir(), "r.csv");
    writeFileSync(path, text);
    return path;
  };

  it.each([
    ["a missing file", () => "/nonexistent/r.csv", "no such file: /nonexistent/r.csv"],
    ["no shipment_id column", () => fixture("csv", "ten-rows.csv"), "has no shipment_id column"],
    ["an id that is not a number", () => file("title,shipment_id,status\nA,12x,created\n"), "r.csv, row 2, column shipment_id (B): \"12x\" is not a shipment id"],
    ["no row with a created shipment", () => file("title,shipment_id,status\nA,,failed\n"), "r.csv: no row has a created shipment: 1 failed (row 2)"],
    ["a results file with only its header", () => file("\ufeffreference,title,shipment_id,status,error\r\n"), "r.csv: no row has a created shipment (it has no data rows)"],
    ["a word on stdin that is not an id", () => "-", 'stdin, line 1: "12x" is not a shipment id'],
  ])("%s", async (_what, path, message) => {
    const org = await sb.newOrg();
    const r = await runCli(["checkout", "--from", path(), "--yes"], { sandbox: org, stdin: "12 12x\n" });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(message);
    expect(await org.control.requests({})).toHaveLength(0);
  });

  it("ids as arguments and --from together", async () => {
    const r = await runCli(["checkout", "12", "--from", "r.csv", "--yes"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("give shipment ids as arguments or --from, not both");
  });
});
