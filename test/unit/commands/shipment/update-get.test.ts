import { describe, expect, it } from "vitest";
import { parseGet, runGet } from "../../../../src/commands/shipment/get.js";
import { parseUpdate, runUpdate } from "../../../../src/commands/shipment/update.js";
import { UsageError } from "../../../../src/errors.js";
import { GALLERY } from "../../../helpers/gallery.js";
import { testDeps } from "../../../helpers/deps.js";
import { httpStubs, reply } from "../../../helpers/http-stubs.js";

const FLAGS = {
  title: "Blue Study",
  value: "1200",
  length: "30",
  height: "24",
  depth: "3",
  service: "Standard",
  fulfillmentAddressId: "12",
  destinationAddressId: "15",
};
const SENT = { title: "Blue Study", value: 1200, length: 30, height: 24, depth: 3, service: 1, fulfillment_address_id: 12, destination_address_id: 15 };

const STORED = {
  id: 7,
  title: "Blue Study",
  status: 7,
  value: 1200,
  length: 30,
  height: 24,
  depth: 3,
  service: 2,
  fulfillment_address: { id: 12, ...GALLERY },
  destination_address: { id: null, ...GALLERY, name: "Collector", line_2: "Apt 3" },
  price: 123456,
  created_at: "2025-02-27 12:00:00",
  updated_at: "2025-02-28 12:00:00",
  delivered_at: "2025-03-01 09:00:00",
  arrived_at: null,
};

const patched = () => httpStubs().on("PATCH /api/v1/shipments/7", reply.empty());
const stored = (shipment: object) => httpStubs().on("GET /api/v1/shipments/7", reply.json(200, { data: shipment }));

describe("shipment update", () => {
  it("PATCHes the full shipment and says so on stderr", async () => {
    const t = testDeps({ http: patched() });
    await runUpdate(parseUpdate(["7"], FLAGS), t.deps);
    expect(t.http.sent("PATCH /api/v1/shipments/7")[0]!.json()).toEqual(SENT);
    expect(t.io.stdout()).toBe("");
    expect(t.io.stderr()).toBe("Updated shipment 7.\n");
  });

  it("prints {id, shipment} with --json", async () => {
    const t = testDeps({ json: true, http: patched() });
    await runUpdate(parseUpdate(["7"], FLAGS), t.deps);
    expect(JSON.parse(t.io.stdout())).toEqual({ id: 7, shipment: SENT });
  });

  it("sends nothing for a bad id or a bad field", async () => {
    const t = testDeps();
    expect(() => parseUpdate(["x"], FLAGS)).toThrow("shipment id must be a positive whole number");
    await expect(runUpdate(parseUpdate(["7"], { ...FLAGS, length: "45" }), t.deps)).rejects.toBeInstanceOf(UsageError);
    expect(t.http.requests).toEqual([]);
  });
});

describe("shipment get", () => {
  it("prints the service's record with --json, its sides in the one form, status_name after status and the report sets beside it", async () => {
    const t = testDeps({ json: true, http: stored(STORED) });
    await runGet(parseGet(["7"]), t.deps);
    const { report_sets, status_name, ...record } = JSON.parse(t.io.stdout());
    // The fulfillment side came inline with its id 12, the destination inline without one (contract/stored-shipment.ts).
    expect(record).toEqual({ ...STORED, fulfillment_address_id: 12, destination_address_id: null });
    expect(status_name).toBe("Delivered");
    // Where list shipments puts it too, so one --fields list or query reads both.
    expect(Object.keys(JSON.parse(t.io.stdout())).indexOf("status_name")).toBe(Object.keys(STORED).indexOf("status") + 1);
    expect(report_sets).toEqual({ set_1: { stored: false, source: "service" }, set_2: { stored: false, source: "service" } });
  });

  it("shows status by name, money in dollars, both addresses and the timestamps", async () => {
    const t = testDeps({ http: stored(STORED) });
    await runGet(parseGet(["7"]), t.deps);
    const out = t.io.stdout();
    expect(out).toMatch(/^status\s+Delivered$/m);
    expect(out).toMatch(/^value\s+\$1,200\.00$/m);
    expect(out).toMatch(/^price\s+\$1,234\.56$/m);
    expect(out).toMatch(/^service\s+2 \(Express\)$/m);
    expect(out).toMatch(/^size\s+30 x 24 x 3 in \(L x H x D\)$/m);
    expect(out).toMatch(/^from\s+Gallery North, 1 Main Street, Seattle, WA 98101, country 1 \(United States\) \(address 12\)$/m);
    expect(out).toMatch(/^to\s+Collector, 1 Main Street, Apt 3, Seattle, WA 98101, country 1 \(United States\) \(inline\)$/m);
    expect(out).toMatch(/^delivered\s+2025-03-01 09:00:00 UTC \(3 h ago\)$/m);
    expect(out).not.toMatch(/^arrived/m);
    expect(out).toMatch(/^reports\s+none$/m);
  });

  it("says when no price session has priced the shipment yet", async () => {
    const t = testDeps({ http: stored({ ...STORED, price: null }) });
    await runGet(parseGet(["7"]), t.deps);
    expect(t.io.stdout()).toMatch(/^price\s+not priced$/m);
  });
});
