// Every command that writes, with a shared PostgreSQL ledger (test/helpers/postgres.ts): each says which ledger it
// records in, and two machines' checkouts of the same drafts, or uploads of the same report set, send each once.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, fixture, runCli, spawnCli, tempDir } from "../../helpers/cli.js";
import { GALLERY } from "../../helpers/gallery.js";
import { postgresAvailable, startPostgres, type PostgresServer } from "../../helpers/postgres.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { seedAddress, seedShipments } from "../../helpers/seed.js";
import { startMcp } from "../mcp/mcp-client.js";
import { rowsFile } from "../batch/helpers.js";
import { bodyRead, HOLD_APPLY_MAX_MS, printed } from "../../helpers/slow-apply.js";
import { shipmentReadyFor } from "../report/setup.js";

const LINE = /^ledger: postgres localhost\/t\d+, organization north-gallery$/m;
const ADDRESS = ["--name", GALLERY.name, "--email", GALLERY.email, "--phone", GALLERY.phone, "--line-1", GALLERY.line_1, "--city", GALLERY.city, "--region", GALLERY.region, "--post-code", GALLERY.post_code, "--country", "US"];

describe.skipIf(!postgresAvailable("shared ledger writes e2e (test/e2e/ledger/shared-writes.test.ts)"))("commands that write, on a shared PostgreSQL ledger", { timeout: 180_000 }, () => {
  let sb: TestSandbox;
  /** A sandbox whose held requests may wait long: no read-back settles them meanwhile. */
  let held: TestSandbox;
  let server: PostgresServer;
  beforeAll(async () => {
    [sb, held, server] = await Promise.all([startTestSandbox(), startTestSandbox({ applyMaxMs: HOLD_APPLY_MAX_MS }), startPostgres()]);
  });
  afterAll(async () => {
    await Promise.all([sb?.close(), held?.close(), server?.stop()]);
  });

  /** A machine of the team: config and state folders of its own, the team's ledger in its environment. */
  function machine(org: OrgTarget, db: string) {
    const home = tempDir("shipctl-machine-");
    return { sandbox: org, configDir: join(home, "config"), env: { SHIPCTL_LEDGER: db, SHIPCTL_ORGANIZATION: "north-gallery", SHIPCTL_STATE_DIR: join(home, "state"), SHIPCTL_LOOK_DAYS: "0" } };
  }

  it("shipment create (file), address add, checkout and report upload each print the ledger line", async () => {
    const org = await sb.newOrg();
    const a = machine(org, await server.newDatabase());
    const shipment = join(tempDir(), "shipment.json");
    writeFileSync(shipment, JSON.stringify({ title: "Blue Study", value: 1200, length: 30, height: 24, depth: 3, service: 1, fulfillment_address: GALLERY, destination_address: { ...GALLERY, name: "Collector South" } }));
    const [draft] = await seedShipments(org, 1);
    const ready = await shipmentReadyFor(org, 1);
    const runs: Record<string, string[]> = {
      "shipment create": ["shipment", "create", "--file", shipment, "--no-verify"],
      "address add": ["address", "add", ...ADDRESS, "--no-verify"],
      checkout: ["checkout", String(draft), "--yes"],
      "report upload": ["report", "upload", String(ready), fixture("photos", "flat"), "--set", "1", "--yes"],
    };
    for (const [name, args] of Object.entries(runs)) {
      const r = await runCli(args, a);
      expect(r.exitCode, `${name}: ${r.stderr}`).toBe(0);
      expect(r.stderr, name).toMatch(LINE);
    }
  });

  it("every other command that records its writes prints the ledger line too: shipment create (flags, CSV), the CSV updates, address add --csv, and MCP's create_shipments", async () => {
    const org = await sb.newOrg();
    const a = machine(org, await server.newDatabase());
    const dir = tempDir();
    const gallery = await seedAddress(org);
    const collector = await seedAddress(org, { name: "Collector South", line_1: "9 Elm Street" });
    await seedShipments(org, 2, gallery);
    const addresses = join(dir, "addresses.csv");
    writeFileSync(addresses, `name,email,phone,line_1,city,region,post_code,country\nCollector North,${GALLERY.email},${GALLERY.phone},${GALLERY.line_1},${GALLERY.city},${GALLERY.region},${GALLERY.post_code},US\n`);
    // Exports of what is stored, one value edited: the CSV updates send it.
    const exported = async (kind: string, from: RegExp, to: string) => {
      const list = await runCli(["list", kind, "--format", "csv"], a);
      expect(list.exitCode, list.stderr).toBe(0);
      expect(list.stdout).toMatch(from);
      const path = join(dir, `${kind}.csv`);
      writeFileSync(path, list.stdout.replace(from, to));
      return path;
    };
    const runs: Record<string, string[]> = {
      "shipment create (flags)": ["shipment", "create", "--title", "Flag Study", "--value", "900", "--length", "30", "--height", "24", "--depth", "3", "--service", "1", "--fulfillment-address-id", String(gallery), "--destination-address-id", String(collector), "--no-verify"],
      "shipment create --csv": ["shipment", "create", "--csv", rowsFile(2, { seed: 237, titlePrefix: "Line" }).path, "--no-verify"],
      "shipment update --csv": ["shipment", "update", "--csv", await exported("shipments", /,1000,/, ",1300,"), "--no-verify"],
      "address add --csv": ["address", "add", "--csv", addresses, "--no-verify"],
      "address update --csv": ["address", "update", "--csv", await exported("addresses", /1 Main Street/, "3 Main Street"), "--no-verify"],
    };
    for (const [name, args] of Object.entries(runs)) {
      const r = await runCli(args, a);
      expect(r.exitCode, `${name}: ${r.stderr}`).toBe(0);
      expect(r.stderr, name).toMatch(LINE);
    }
    const mcp = await startMcp([], a);
    try {
      const item = { title: "Mcp Study", value: 900, length: 30, height: 24, depth: 3, service: 1, fulfillment_address_id: gallery, destination_address: { ...GALLERY, name: "Collector Mcp" } };
      const { doc, isError } = await mcp.call("create_shipments", { items: [item] });
      expect(isError, JSON.stringify(doc)).toBe(false);
      expect(mcp.stderr()).toMatch(LINE);
    } finally {
      await mcp.close();
    }
  });

  it("two machines check out the same 30 drafts, the second while the first's payment is held: each id in one POST /api/v1/checkout only", async () => {
    const org = await held.newOrg();
    const db = await server.newDatabase();
    const ids = await seedShipments(org, 30);
    const args = ["checkout", ...ids.map(String), "--yes"];
    const [a, b] = [machine(org, db), machine(org, db)];
    await org.control.fault({ method: "POST", path: "/api/v1/checkout", kind: "hold" });
    const first = collect(spawnCli(args, a), 120_000);
    await bodyRead(org, { method: "POST", path: "/api/v1/checkout" });
    const child = spawnCli(args, b);
    const second = collect(child, 120_000);
    // Machine B waits for A's run (the team's ledger names it) or stops; then A's payment is let through.
    await Promise.race([printed(child, /another shipctl run|waiting/i), second]);
    await org.control.releaseHeld();
    const [ra, rb] = [await first, await second];
    expect(ra.exitCode, ra.stderr).toBe(0);
    if (rb.exitCode !== 0) expect((await runCli(args, b)).exitCode).toBe(0);
    // A POST naming an id already paid is refused by the sandbox: every one answered 204, each made one charge, and
    // the charges name each id once.
    const posts = await org.control.requests({ method: "POST", path: "/api/v1/checkout" });
    expect(posts.map((p) => p.status)).toEqual(posts.map(() => 204));
    const charges = await org.control.charges();
    expect(charges).toHaveLength(posts.length);
    const charged = charges.flatMap((c) => Object.keys(c.shipments).map(Number));
    expect([...charged].sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
  });

  it("two machines upload the same report set, the second while the first's upload is held: one POST /api/v1/reports/{id}/{set}", async () => {
    const org = await held.newOrg();
    const db = await server.newDatabase();
    const id = await shipmentReadyFor(org, 1);
    const path = `/api/v1/reports/${id}/1`;
    const args = ["report", "upload", String(id), fixture("photos", "flat"), "--set", "1", "--yes"];
    const [a, b] = [machine(org, db), machine(org, db)];
    await org.control.fault({ method: "POST", path, kind: "hold" });
    const first = collect(spawnCli(args, a), 120_000);
    await bodyRead(org, { method: "POST", path });
    // Machine B while A's upload is held in the sandbox, not yet stored: the team's ledger holds it in flight.
    const child = spawnCli(args, b);
    const done = collect(child, 120_000);
    await Promise.race([printed(child, /another shipctl run|waiting/i), done]);
    await org.control.releaseHeld();
    const second = await done;
    expect((await first).exitCode).toBe(0);
    if (second.exitCode !== 0) {
      const again = await runCli(args, b);
      expect(again.exitCode, again.stderr).toBe(0);
    }
    expect(await org.control.requests({ method: "POST", path })).toHaveLength(1);
  });
});
