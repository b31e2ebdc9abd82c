// `shipctl api METHOD PATH` against the sandbox: reads, pages, --include, error statuses, a PATCH, the refusal of a
// write that must not repeat (nothing sent), and the token kept out of --debug.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../helpers/cli.js";
import { json, startServer } from "../../helpers/http-server.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { seedAddress, seedShipments } from "../../helpers/seed.js";

let sb: TestSandbox;
/** One organization with 2 shipments from a stored address, for the tests that read or change one. */
let org: OrgTarget;
let addressId: number;
let ids: number[];
beforeAll(async () => {
  sb = await startTestSandbox();
  org = await sb.newOrg();
  addressId = await seedAddress(org);
  ids = await seedShipments(org, 2, addressId);
});
afterAll(() => sb.close());

describe("shipctl api", () => {
  it("GET a shipment: the service's body on stdout, indented JSON", async () => {
    const r = await runCli(["api", "get", `/api/v1/shipments/${ids[0]}`], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^\{\n {2}"data": \{\n/);
    expect(JSON.parse(r.stdout).data).toMatchObject({ id: ids[0], title: "Piece 1" });
  });

  it("--paginate follows links.next over every page: each item exactly once as NDJSON, or one array with --slurp", async () => {
    const many = await sb.newOrg();
    const seeded = await many.control.seedShipments({ count: 45 });
    const expected = Array.from({ length: 45 }, (_, i) => seeded.first_id + i);

    const r = await runCli(["api", "GET", "/api/v1/shipments", "--paginate"], { sandbox: many });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual(expected);
    // The service's default page of 20: three pages, each read once.
    const pages = await many.control.requests({ method: "GET", path: "/api/v1/shipments" });
    expect(pages.map((p) => new URLSearchParams(p.query).get("page") ?? "1")).toEqual(["1", "2", "3"]);

    const slurped = await runCli(["api", "GET", "api/v1/shipments", "-F", "limit=50", "--paginate", "--slurp"], { sandbox: many });
    expect(slurped.exitCode, slurped.stderr).toBe(0);
    const all = JSON.parse(slurped.stdout) as Array<{ id: number }>;
    expect(all.map((s) => s.id)).toEqual(expected);
  });

  it("--paginate: a page that fails after the retries ends the stream with its body on one line, exit 7", async () => {
    const fresh = await sb.newOrg();
    await fresh.control.seedShipments({ count: 3 });
    // Faults apply in the order queued: a no-op one lets page 1 through, then every read of page 2 fails.
    await fresh.control.fault({ method: "GET", path: "/api/v1/shipments", kind: "latency", ms: 0 });
    await fresh.control.fault({ method: "GET", path: "/api/v1/shipments", kind: "502", count: 20 });
    const r = await runCli(["api", "GET", "/api/v1/shipments", "-F", "limit=2", "--paginate"], { sandbox: fresh });
    expect(r.exitCode, r.stderr).toBe(7);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines.slice(0, 2).map((l) => typeof (JSON.parse(l) as { id?: unknown }).id)).toEqual(["number", "number"]);
    // The sandbox's 502 is an HTML page, as a proxy's would be: a JSON string, so every line still parses.
    expect(JSON.parse(lines[2]!)).toContain("502 Bad Gateway");
    expect(r.stderr).toMatch(/^Error: .*502/m);
  });

  it("--paginate follows only pages of the list asked for: a next link elsewhere (here a guarded endpoint) is not followed", async () => {
    const server = await startServer((req, res) =>
      json(res, 200, { data: [{ id: 1 }], links: { next: `http://${req.headers.host}/api/v1/checkout?page=2` }, meta: {} }),
    );
    try {
      const r = await runCli(["api", "GET", "/api/v1/shipments", "--paginate"], {
        configDir: tempDir(),
        env: { SHIPCTL_BASE_URL: server.url, SHIPCTL_TOKEN: "t0ken-for-the-test" },
      });
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain("is not a page of /api/v1/shipments, the list being read");
      expect(server.received.map((q) => q.url)).toEqual(["/api/v1/shipments"]);
    } finally {
      await server.close();
    }
  });

  it("--include prints the status line and headers, then a blank line, then the body", async () => {
    const r = await runCli(["api", "GET", `/api/v1/shipments/${ids[0]}`, "--include"], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    const [head, body] = r.stdout.split("\n\n", 2) as [string, string];
    expect(head.split("\n")[0]).toBe("HTTP/1.1 200 OK");
    expect(head).toMatch(/^content-type: application\/json/m);
    expect(JSON.parse(body).data.id).toBe(ids[0]);
  });

  it("a 404 exits 6 with the service's body on stdout and the message on stderr", async () => {
    const r = await runCli(["api", "GET", "/api/v1/shipments/999999"], { sandbox: org });
    expect(r.exitCode).toBe(6);
    expect(JSON.parse(r.stdout)).toEqual({ message: expect.stringContaining("999999") });
    expect(r.stderr).toMatch(/^Error: Not found: .*\(GET \/api\/v1\/shipments\/999999 answered 404/);
  });

  it("refuses POST /api/v1/checkout however it is written, naming shipctl checkout; the sandbox sees nothing", async () => {
    const payer = await sb.newOrg();
    const [id] = await seedShipments(payer, 1);
    const priced = await runCli(["api", "GET", "/api/v1/checkout", "-F", `shipments[]=${id}`], { sandbox: payer });
    expect(JSON.parse(priced.stdout).total, priced.stderr).toBeGreaterThan(0); // priced: payable
    await payer.control.clearRequests();
    for (const argv of [
      ["api", "POST", "/api/v1/checkout", "-F", `shipments[]=${id}`],
      ["api", "post", `${payer.url}/API/v1//checkout/`, "-F", `shipments[]=${id}`],
      ["api", "PUT", "/api/v1/shipments/../checkout", "-H", "X-HTTP-Method-Override: POST", "-F", `shipments[]=${id}`],
    ]) {
      const r = await runCli(argv, { sandbox: payer });
      expect(r.exitCode, argv.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("charges the organization's card");
      expect(r.stderr).toContain("Use `shipctl checkout`");
    }
    expect(await payer.control.requests()).toEqual([]);
    expect(await payer.control.charges()).toEqual([]);
  });

  it("PATCH updates a shipment (204: nothing on stdout), then a GET shows it", async () => {
    const body = join(tempDir(), "shipment.json");
    writeFileSync(body, JSON.stringify({ title: "Renamed by api", value: 1500, length: 30, height: 24, depth: 3, service: 1, fulfillment_address_id: addressId, destination_address_id: addressId }));
    const r = await runCli(["api", "PATCH", `/api/v1/shipments/${ids[1]}`, "--input", body], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    const read = await runCli(["api", "GET", `/api/v1/shipments/${ids[1]}`], { sandbox: org });
    expect(JSON.parse(read.stdout).data).toMatchObject({ title: "Renamed by api", value: 1500 });
  });

  it("--debug logs each request with the token redacted, even where the path carries it", async () => {
    const r = await runCli(["--debug", "api", "GET", `/api/v1/shipments/${ids[0]}?echo=${org.token}`], { sandbox: org });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^\\[debug\\] GET http://127\\.0\\.0\\.1:\\d+/api/v1/shipments/${ids[0]}\\?echo=\\[REDACTED\\] -> 200`, "m"));
    expect(r.stderr).not.toContain(org.token);
  });
});
