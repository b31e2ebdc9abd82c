// Condition reports: 6 box[] + 6 art[] photos, at most 1,048,576 bytes each, JPG or PNG by content; set 1 while
// Delivered within 30 days, set 2 while Arrived within 24 hours (edges inclusive); statuses move to Filed/Completed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPORT, ShipmentStatus } from "../../../src/contract/index.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { createShipments, jpeg, png, postReport, reportParts, send, SIDES, type Part } from "./support.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const DELIVERED_AT = "2025-01-01 00:00:00";

/** A shipment in `status` since DELIVERED_AT, with the organization's clock frozen at `now`. */
async function shipmentIn(status: "Delivered" | "Arrived", now = "2025-01-02 00:00:00"): Promise<{ o: OrgTarget; id: number }> {
  const o = await sb.newOrg();
  const [id] = await createShipments(o, 1);
  await o.control.setStatus(id!, status, DELIVERED_AT);
  await o.control.setClock(now);
  return { o, id: id! };
}

describe("a valid set", () => {
  it("set 1: 201 empty, Delivered -> Filed, every photo recorded in the order received", async () => {
    const { o, id } = await shipmentIn("Delivered");
    const parts = reportParts((group, side) => (side === "top" ? png(3000) : jpeg(1000 + group.length)));
    const r = await postReport(o, id, 1, parts);
    expect(r.status).toBe(201);
    expect(r.text).toBe("");
    expect((await send(o, "GET", `/api/v1/shipments/${id}`)).body.data.status).toBe(ShipmentStatus.Filed);
    const [report] = await o.control.reports();
    expect(report).toMatchObject({ shipment_id: id, set: 1, received_at: "2025-01-02 00:00:00" });
    expect(report!.photos.map((p) => `${p.part} ${p.filename}`)).toEqual(parts.map((p) => `${p.name} ${p.filename}`));
    expect(report!.photos[2]).toMatchObject({ detected: "png", size: 3000, content_type: "image/jpeg", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(report!.photos[0]).toMatchObject({ detected: "jpeg", size: 1003 });
    const [received] = await o.control.requests({ method: "POST", path: `/api/v1/reports/${id}/1` });
    expect(received!.parts).toEqual([...SIDES.map(() => "box[]"), ...SIDES.map(() => "art[]")]);
    expect(received!.status).toBe(201);
  });

  it("set 2: Arrived -> Completed", async () => {
    const { o, id } = await shipmentIn("Arrived", "2025-01-01 10:00:00");
    expect((await postReport(o, id, 2, reportParts())).status).toBe(201);
    expect((await send(o, "GET", `/api/v1/shipments/${id}`)).body.data.status).toBe(ShipmentStatus.Completed);
  });

  it("judges the type by content: a PNG named .jpg passes", async () => {
    const { o, id } = await shipmentIn("Delivered");
    const parts = reportParts(() => png());
    expect((await postReport(o, id, 1, parts)).status).toBe(201);
  });
});

describe("photo size (at most 1,048,576 bytes each)", () => {
  it("accepts a photo of exactly 1,048,576 bytes", async () => {
    const { o, id } = await shipmentIn("Delivered");
    const parts = reportParts((g, side) => (g === "art" && side === "left" ? jpeg(REPORT.photoMaxBytes) : jpeg()));
    expect((await postReport(o, id, 1, parts)).status).toBe(201);
    const [report] = await o.control.reports();
    expect(report!.photos[10]!.size).toBe(1_048_576);
  });

  it("refuses a photo of 1,048,577 bytes with 422 keyed art.4 and stores nothing", async () => {
    const { o, id } = await shipmentIn("Delivered");
    const parts = reportParts((g, side) => (g === "art" && side === "left" ? jpeg(REPORT.photoMaxBytes + 1) : jpeg()));
    const r = await postReport(o, id, 1, parts);
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual(["art.4"]);
    expect(r.body.errors["art.4"][0]).toContain("1,048,576");
    expect((await send(o, "GET", `/api/v1/shipments/${id}`)).body.data.status).toBe(ShipmentStatus.Delivered);
    expect(await o.control.reports()).toEqual([]);
    // Parsing stopped at the over-size photo: the last part the sandbox saw is that one.
    const [received] = await o.control.requests({ path: `/api/v1/reports/${id}/1` });
    expect(received!.parts).toHaveLength(11);
  });

  it("keeps serving the connection after refusing a large upload early", async () => {
    const { o, id } = await shipmentIn("Delivered");
    const big = reportParts(() => jpeg(REPORT.photoMaxBytes + 10));
    expect((await postReport(o, id, 1, big)).status).toBe(422);
    expect((await postReport(o, id, 1, reportParts())).status).toBe(201);
  });
});

describe("photo count and type", () => {
  const withCounts = (box: number, art: number): Part[] => [
    ...Array.from({ length: box }, (_, i) => ({ name: "box[]", filename: `b${i}.jpg`, data: jpeg() })),
    ...Array.from({ length: art }, (_, i) => ({ name: "art[]", filename: `a${i}.jpg`, data: jpeg() })),
  ];

  it.each([
    [5, 6, "box", "got 5"],
    [7, 6, "box", "got 7"],
    [6, 5, "art", "got 5"],
    [6, 7, "art", "got 7"],
    [6, 0, "art", "got 0"],
  ])("refuses %i box and %i art photos (422 keyed %s)", async (box, art, key, got) => {
    const { o, id } = await shipmentIn("Delivered");
    const r = await postReport(o, id, 1, withCounts(box, art));
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual([key]);
    expect(r.body.errors[key][0]).toContain(got);
  });

  it("refuses content that is neither JPEG nor PNG whatever its name, keyed like box.2", async () => {
    const { o, id } = await shipmentIn("Delivered");
    const parts = reportParts();
    parts[2] = { ...parts[2]!, data: Buffer.from("GIF89a not really a photo") };
    parts[7] = { ...parts[7]!, data: Buffer.alloc(0) };
    const r = await postReport(o, id, 1, parts);
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({
      "box.2": [expect.stringContaining("must be a JPG or PNG")],
      "art.1": [expect.stringContaining("empty")],
    });
  });

  it("refuses parts with other names, and photos sent as text fields", async () => {
    const { o, id } = await shipmentIn("Delivered");
    const parts: Part[] = [...reportParts(), { name: "note", data: "hello" }, { name: "photos[]", filename: "x.jpg", data: jpeg() }];
    const r = await postReport(o, id, 1, parts);
    expect(Object.keys(r.body.errors).sort()).toEqual(["note", "photos[]"]);
    const asText = reportParts();
    asText[0] = { name: "box[]", data: "not a file" };
    expect(Object.keys((await postReport(o, id, 1, asText)).body.errors)).toEqual(["box.0"]);
  });

  it("caps the number of parts", async () => {
    const { o, id } = await shipmentIn("Delivered");
    const r = await postReport(o, id, 1, withCounts(40, 6));
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toContain("parts");
  });

  it("answers 415 to a body that is not multipart, and 400 to a broken one", async () => {
    const { o, id } = await shipmentIn("Delivered");
    expect((await send(o, "POST", `/api/v1/reports/${id}/1`, { json: { box: [] } })).status).toBe(415);
    const broken = await send(o, "POST", `/api/v1/reports/${id}/1`, { body: "nothing here", headers: { "content-type": "multipart/form-data" } });
    expect(broken.status).toBe(400);
  });
});

describe("set and shipment", () => {
  it.each(["0", "3", "x"])("answers 404 for set %s", async (set) => {
    const { o, id } = await shipmentIn("Delivered");
    const r = await postReport(o, id, set, reportParts());
    expect(r.status).toBe(404);
  });

  it("answers 404 for a shipment of another organization", async () => {
    const { id } = await shipmentIn("Delivered");
    const other = await sb.newOrg();
    expect((await postReport(other, id, 1, reportParts())).status).toBe(404);
  });
});

describe("status and time windows", () => {
  it("set 1 needs Delivered: 422 naming the rule (Draft, Filed, and Arrived for set 1)", async () => {
    const o = await sb.newOrg();
    const [id] = await createShipments(o, 1);
    const r = await postReport(o, id!, 1, reportParts());
    expect(r.status).toBe(422);
    expect(r.body.message).toContain("only while the shipment is Delivered; shipment");
    expect(r.body.message).toContain("is Draft");
    const { o: o2, id: id2 } = await shipmentIn("Delivered");
    expect((await postReport(o2, id2, 1, reportParts())).status).toBe(201);
    expect((await postReport(o2, id2, 1, reportParts())).body.message).toContain("is Filed");
  });

  it("refuses by status before reading a full-size body, and the client still gets the answer", async () => {
    const o = await sb.newOrg();
    const [id] = await createShipments(o, 1);
    const r = await postReport(o, id!, 1, reportParts(() => jpeg(REPORT.photoMaxBytes)));
    expect(r.status).toBe(422);
    expect((await send(o, "GET", `/api/v1/shipments/${id}`)).status).toBe(200);
  });

  it("set 2 needs Arrived", async () => {
    const { o, id } = await shipmentIn("Delivered");
    const r = await postReport(o, id, 2, reportParts());
    expect(r.status).toBe(422);
    expect(r.body.message).toContain("only while the shipment is Arrived");
  });

  it("set 1 window: exactly 30 days after delivery is accepted, one second later is refused", async () => {
    const onEdge = await shipmentIn("Delivered", "2025-01-31 00:00:00");
    expect((await postReport(onEdge.o, onEdge.id, 1, reportParts())).status).toBe(201);
    const late = await shipmentIn("Delivered", "2025-01-31 00:00:01");
    const r = await postReport(late.o, late.id, 1, reportParts());
    expect(r.status).toBe(422);
    expect(r.body.message).toContain("within 30 days");
    expect(r.body.message).toContain("2025-01-31 00:00:00");
  });

  it("set 1 window: one millisecond after 30 days is already refused", async () => {
    const late = await shipmentIn("Delivered", "2025-01-31 00:00:00");
    await late.o.control.advanceClock(1);
    expect((await postReport(late.o, late.id, 1, reportParts())).status).toBe(422);
  });

  it("set 2 window: exactly 24 hours after arrival is accepted, one second later is refused", async () => {
    const onEdge = await shipmentIn("Arrived", "2025-01-02 00:00:00");
    expect((await postReport(onEdge.o, onEdge.id, 2, reportParts())).status).toBe(201);
    const late = await shipmentIn("Arrived", "2025-01-02 00:00:01");
    const r = await postReport(late.o, late.id, 2, reportParts());
    expect(r.status).toBe(422);
    expect(r.body.message).toContain("within 24 hours");
  });

  it("moving to Delivered without a timestamp starts the window at the organization's now", async () => {
    const o = await sb.newOrg();
    const [id] = await createShipments(o, 1);
    await o.control.setClock("2025-05-05 05:05:05");
    const moved = await o.control.setStatus(id!, 7);
    expect(moved).toMatchObject({ status: 7, delivered_at: "2025-05-05 05:05:05" });
  });
});
