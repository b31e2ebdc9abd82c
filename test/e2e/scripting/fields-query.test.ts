// --fields and --query from a script's side (issue 14): the built CLI against the sandbox, stdout parsed as a script
// would, exit codes and stderr as documented in `shipctl help formatting`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { seedAddress, seedShipments } from "../../helpers/seed.js";

let sb: TestSandbox;
/** One organization holding 5 shipments (ids in `ids`), read by every test. */
let org: OrgTarget;
let ids: number[];
beforeAll(async () => {
  sb = await startTestSandbox();
  org = await sb.newOrg();
  ids = await seedShipments(org, 5, await seedAddress(org));
});
afterAll(() => sb.close());

describe("--fields", () => {
  it("list shipments --json --fields id,title keeps exactly those keys of each shipment", async () => {
    const r = await runCli(["list", "shipments", "--json", "--fields", "id,title"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { shipments: Array<Record<string, unknown>>; next_page: unknown };
    expect(doc.shipments).toHaveLength(5);
    for (const s of doc.shipments) expect(Object.keys(s)).toEqual(["id", "title"]);
    expect(doc.shipments.map((s) => s.id)).toEqual(ids);
    expect(doc.next_page).toBeNull();
  });

  it("an unknown field is exit 2 naming the valid ones, on stderr and in the --json error document; nothing is sent", async () => {
    await org.control.clearRequests();
    const r = await runCli(["list", "shipments", "--json", "--fields", "id,colour"], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Error: unknown field "colour" for list shipments');
    expect(r.stderr).toMatch(/Valid fields: id, title, .*status_name.*created_at/);
    const error = (JSON.parse(r.stdout) as { error: { code: string; exit_code: number; message: string; hint: string } }).error;
    expect(error).toMatchObject({ code: "usage_error", exit_code: 2, message: 'unknown field "colour" for list shipments' });
    expect(error.hint).toContain("status_name");
    expect((await org.control.requests()).filter((q) => q.path.startsWith("/api/"))).toEqual([]);
  });

  it("--ndjson --fields shapes each line", async () => {
    const r = await runCli(["list", "shipments", "--limit", "2", "--all", "--ndjson", "--fields", "status_name,id"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toEqual(ids.map((id) => JSON.stringify({ status_name: "Draft", id })));
  });

  it("shipment get ID --json --fields keeps those fields of the shipment", async () => {
    const r = await runCli(["shipment", "get", "--json", String(ids[0]), "--fields", "id,status,report_sets"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(["id", "status", "report_sets"]);
    expect(doc.id).toBe(ids[0]);
  });

  it("without a data output is exit 2 naming the flag", async () => {
    const r = await runCli(["shipment", "get", String(ids[0]), "--fields", "id"], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("Error: --fields needs --json");
  });
});

describe("--query", () => {
  it("list shipments --all --json --query 'shipments[].id' prints the ids", async () => {
    const r = await runCli(["list", "shipments", "--limit", "2", "--all", "--json", "--query", "shipments[].id"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(ids);
  });

  it("applies to each NDJSON line, and a null result prints no line", async () => {
    const r = await runCli(["list", "shipments", "--ndjson", "--query", `[@][?id > \`${ids[2]}\`] | [0].id`], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${ids[3]}\n${ids[4]}\n`);
  });

  it("applies to `api`'s body, and with --paginate to each item", async () => {
    const one = await runCli(["api", "GET", `/api/v1/shipments/${ids[1]}`, "--query", "data.title"], { sandbox: org });
    expect(one.exitCode, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toBe("Piece 2");
    const pages = await runCli(["api", "GET", "/api/v1/shipments", "-F", "limit=2", "--paginate", "--query", "id"], { sandbox: org });
    expect(pages.exitCode, pages.stderr).toBe(0);
    expect(pages.stdout).toBe(ids.map((id) => `${id}\n`).join(""));
    const include = await runCli(["api", "GET", "/api/v1/shipments", "--include", "--query", "data"], { sandbox: org });
    expect(include.exitCode).toBe(2);
    expect(include.stderr).toContain("--query works on JSON output: --include prints the status line and headers");
  });

  it("a bad expression is exit 2 naming the problem before anything is sent; the failure is never reshaped", async () => {
    await org.control.clearRequests();
    const r = await runCli(["list", "shipments", "--json", "--query", "shipments[?"], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Error: --query "shipments[?" is not a valid JMESPath expression');
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: "usage_error", exit_code: 2 } });
    expect((await org.control.requests()).filter((q) => q.path.startsWith("/api/"))).toEqual([]);

    const missing = await runCli(["shipment", "get", "999999", "--json", "--query", "id"], { sandbox: org });
    expect(missing.exitCode).toBe(6);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: "not_found", exit_code: 6 } });
  });
});

describe("-r/--raw-output", () => {
  it("prints a string without its quotes, and an array of strings or numbers one item a line (issue 20)", async () => {
    const one = await runCli(["shipment", "get", String(ids[0]), "--json", "--query", "title", "-r"], { sandbox: org });
    expect(one.exitCode, one.stderr).toBe(0);
    expect(one.stdout).toBe("Piece 1\n");
    const titles = await runCli(["list", "shipments", "--json", "--query", "shipments[].title", "--raw-output"], { sandbox: org });
    expect(titles.stdout).toBe(["Piece 1", "Piece 2", "Piece 3", "Piece 4", "Piece 5"].map((t) => `${t}\n`).join(""));
    const numbers = await runCli(["list", "shipments", "--json", "--query", "shipments[].id", "-r"], { sandbox: org });
    expect(numbers.stdout).toBe(ids.map((id) => `${id}\n`).join(""));
  });

  it("prints any other value as JSON, applies to each NDJSON line, and leaves a failure's document as it is", async () => {
    const object = await runCli(["shipment", "get", String(ids[0]), "--json", "--query", "{id: id}", "-r"], { sandbox: org });
    expect(JSON.parse(object.stdout)).toEqual({ id: ids[0] });
    const lines = await runCli(["list", "shipments", "--limit", "2", "--all", "--ndjson", "--query", "title", "-r"], { sandbox: org });
    expect(lines.stdout).toBe(["Piece 1", "Piece 2", "Piece 3", "Piece 4", "Piece 5"].map((t) => `${t}\n`).join(""));
    const missing = await runCli(["shipment", "get", "999999", "--json", "--query", "title", "-r"], { sandbox: org });
    expect(missing.exitCode).toBe(6);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: "not_found" } });
  });

  it("without --query is exit 2 saying so, nothing sent", async () => {
    await org.control.clearRequests();
    const r = await runCli(["list", "shipments", "--json", "-r"], { sandbox: org });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("-r/--raw-output prints what --query picks: add --query EXPR");
    expect((await org.control.requests()).filter((q) => q.path.startsWith("/api/"))).toEqual([]);
  });
});
