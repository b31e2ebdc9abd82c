// `shipment create` from flags or a JSON file, against the batch's fake service: the same exactly-once promise as the
// CSV path (ledger, reconciliation, resume), items numbered 1..N, and local checks before anything is sent.
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { runCreateItems } from "../../../src/shipments/create-from-items.js";
import { sendOptions } from "../../../src/batch/run-options.js";
import { NetworkError, ValidationError } from "../../../src/api/api-errors.js";
import { httpStubs, reply } from "../../helpers/http-stubs.js";
import { UsageError } from "../../../src/errors.js";
import { FakeShipmentService, shipmentHarness, type ShipmentHarness } from "../../helpers/fake-shipment-service.js";
import { instantClock } from "../../helpers/clock.js";
import { SHIPMENT_FLAGS } from "../../helpers/gallery.js";
import { heldLocks, inputRecords, onlyInputRecord, stateDirOf } from "../../helpers/ledger.js";

interface Doc {
  created: Array<{ item: number; reference: string | null; title: string; shipment_id: number }>;
  failed: Array<{ item: number; status: string; error: string; problems?: Array<{ column: string; reason: string }> }>;
  skipped: Array<{ item: number; shipment_id: number }>;
  counts: Record<string, number>;
}

const GALLERY = {
  name: "North Gallery",
  email: "ship@north.example",
  phone: "+12069536978",
  line_1: "1201 2nd Avenue",
  city: "Seattle",
  region: "WA",
  post_code: "98101",
  country: 1,
};

function item(n: number, prefix = "Piece", extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: `${prefix} ${n}`, value: 100 + n, length: 30, height: 24, depth: 3, service: 1, fulfillment_address_id: 12, destination_address_id: 15, ...extra };
}

function items(n: number, prefix = "Piece"): Array<Record<string, unknown>> {
  return Array.from({ length: n }, (_, i) => item(i + 1, prefix));
}

function writeJson(h: ShipmentHarness, value: unknown, name = "shipments.json"): string {
  const path = join(h.dir, name);
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
}

const FLAGS = SHIPMENT_FLAGS;
/** How the items are sent when no flag changes it. */
const SEND = sendOptions({});

function exactlyOnce(service: FakeShipmentService, titles: readonly string[]): void {
  const counts = service.countsByTitle();
  for (const t of titles) expect(counts.get(t), t).toBe(1);
  expect(service.shipments).toHaveLength(titles.length);
}

const doc = (h: ShipmentHarness) => JSON.parse(h.io.stdout()) as Doc;

describe("shipment create from flags", () => {
  it("creates one shipment from the flags and reports its id", async () => {
    const h = shipmentHarness({ json: true });
    expect(await runCreateItems(h.deps, FLAGS, SEND)).toBe(0);
    expect(h.service.createCalls).toEqual([
      [{ title: "Blue Study", value: 1200, length: 30, height: 24, depth: 3, service: 1, fulfillment_address_id: 12, destination_address_id: 15 }],
    ]);
    expect(doc(h)).toMatchObject({
      created: [{ item: 1, reference: null, title: "Blue Study", shipment_id: 1 }],
      failed: [],
      skipped: [],
      counts: { items: 1, created: 1, failed: 0, skipped: 0 },
    });
  });

  it("prints a table for people, and the summary on stderr", async () => {
    const h = shipmentHarness();
    expect(await runCreateItems(h.deps, FLAGS, SEND)).toBe(0);
    expect(h.io.stdout()).toMatch(/^ITEM\s+REFERENCE\s+TITLE\s+SHIPMENT ID\s+STATUS\n\s+1\s+Blue Study\s+1\s+created\n$/);
    expect(h.io.stderr()).toContain("1 created (of 1 item).");
  });

  it("takes service names through the profile's table", async () => {
    const h = shipmentHarness();
    expect(await runCreateItems(h.deps, { ...FLAGS, service: "Express" }, SEND)).toBe(0);
    expect(h.service.createCalls[0]![0]!.service).toBe(2);
  });

  it("refuses bad flags with every problem and the flag to fix, sending nothing (exit 2)", async () => {
    const h = shipmentHarness();
    const error = await runCreateItems(h.deps, { ...FLAGS, value: "20", depth: "3.5", destinationAddressId: undefined }, SEND).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as UsageError).message;
    expect(message).toMatch(/^The shipment has 3 problems, so nothing was sent:/);
    expect(message).toContain("value (--value): value must be between 50 and 10000 USD (got 20)");
    expect(message).toContain("depth (--depth): depth must be a whole number (got 3.5)");
    expect(message).toContain("destination_address_id (--destination-address-id): destination_address_id or destination_address is required");
    expect(h.service.createCalls).toHaveLength(0);
    expect(inputRecords(stateDirOf(h.dir))).toEqual([]);
  });

  it("lists an unknown --service with the other bad flags, in the same report", async () => {
    const h = shipmentHarness();
    const error = await runCreateItems(h.deps, { ...FLAGS, value: "20", service: "Overnight" }, SEND).catch((e: unknown) => e);
    const message = (error as UsageError).message;
    expect(message).toMatch(/^The shipment has 2 problems, so nothing was sent:/);
    expect(message).toContain("value (--value): value must be between 50 and 10000 USD (got 20)");
    expect(message).toMatch(/ {2}service \(--service\): .*Overnight/);
    expect(h.service.createCalls).toHaveLength(0);
  });

  it("with no input at all, says what to give", async () => {
    const h = shipmentHarness();
    await expect(runCreateItems(h.deps, {}, SEND)).rejects.toThrow("no shipment given");
  });

  it("run again, sends nothing and reports the id; a new --reference makes a second shipment", async () => {
    const service = new FakeShipmentService(instantClock);
    const first = shipmentHarness({ service });
    expect(await runCreateItems(first.deps, FLAGS, SEND)).toBe(0);
    expect(inputRecords(stateDirOf(first.dir))).toHaveLength(1);

    const again = shipmentHarness({ service, dir: first.dir, json: true });
    expect(await runCreateItems(again.deps, FLAGS, SEND)).toBe(0);
    expect(service.createCalls).toHaveLength(1);
    expect(doc(again)).toMatchObject({ created: [], skipped: [{ item: 1, shipment_id: 1 }], counts: { skipped: 1 } });
    // Unlike a CSV rerun's summary alone, the items' rerun names its ledger, then says how to make another.
    expect(again.io.stderr()).toMatch(/^0 created, 1 already created by an earlier run \(of 1 item\)\.\nLedger: .+\nNothing was sent: this shipment was created by an earlier run of the same input\. .*give it a new reference \(--reference/);

    const other = shipmentHarness({ service, dir: first.dir });
    expect(await runCreateItems(other.deps, { ...FLAGS, reference: "second copy" }, SEND)).toBe(0);
    expect(service.createCalls).toHaveLength(2);
  });

  it("a blank --reference is none (as in a file): two shipments given with one are both created", async () => {
    const service = new FakeShipmentService(instantClock);
    const first = shipmentHarness({ service });
    expect(await runCreateItems(first.deps, { ...FLAGS, reference: "" }, SEND)).toBe(0);
    const other = shipmentHarness({ service, dir: first.dir });
    expect(await runCreateItems(other.deps, { ...FLAGS, title: "Red Study", reference: "  " }, SEND)).toBe(0);
    expect(service.createCalls).toHaveLength(2);
    const none = shipmentHarness({ service, dir: first.dir });
    await expect(runCreateItems(none.deps, { reference: " " }, SEND)).rejects.toThrow("no shipment given");
  });

  it("a lost answer is reconciled by reading the shipments back, not resent", async () => {
    const h = shipmentHarness({ json: true });
    h.service.script = ["lost-after-apply"];
    expect(await runCreateItems(h.deps, FLAGS, SEND)).toBe(0);
    expect(h.service.createCalls).toHaveLength(1);
    expect(h.io.stderr()).toMatch(/The answer to 1 request was lost/);
    expect(doc(h).created).toEqual([expect.objectContaining({ item: 1, shipment_id: 1 })]);
    exactlyOnce(h.service, ["Blue Study"]);
  });

  it("a 500 is not resent in the same run (it may have applied); read back once the request is over: not created, exit 7; the rerun sends it", async () => {
    const service = new FakeShipmentService(instantClock);
    const h = shipmentHarness({ service });
    service.script = ["500"];
    expect(await runCreateItems(h.deps, FLAGS, SEND)).toBe(7);
    expect(service.createCalls).toHaveLength(1);
    expect(h.io.stderr()).toMatch(/1 item was proven not created/);
    const second = shipmentHarness({ service, dir: h.dir });
    expect(await runCreateItems(second.deps, FLAGS, SEND)).toBe(0);
    expect(second.io.stderr()).not.toMatch(/in flight/);
    expect(service.createCalls).toHaveLength(2);
    exactlyOnce(service, ["Blue Study"]);
  });

  it("killed with the answer unrecorded: the rerun reconciles before sending and creates nothing twice", async () => {
    const service = new FakeShipmentService(instantClock);
    const first = shipmentHarness({ service });
    service.script = ["killed-after-apply"];
    await expect(runCreateItems(first.deps, FLAGS, SEND)).rejects.toThrow("killed");
    expect(service.shipments).toHaveLength(1);

    const second = shipmentHarness({ service, dir: first.dir, json: true });
    expect(await runCreateItems(second.deps, FLAGS, SEND)).toBe(0);
    expect(second.io.stderr()).toMatch(/1 item was in flight when an earlier run stopped/);
    expect(second.io.stderr()).toMatch(/1 found created, 0 proven not created/);
    expect(service.createCalls).toHaveLength(1);
    expect(doc(second).skipped).toEqual([expect.objectContaining({ item: 1, shipment_id: 1 })]);
  });

  it("a lost answer that cannot be read back: unknown, said in the words of items, with the command that checks it", async () => {
    const h = shipmentHarness();
    h.service.script = ["lost-after-apply"];
    const api = await h.deps.api();
    const list = api.listShipments.bind(api);
    let lists = 0;
    // The look before sending reads the list; the read-back after the lost answer cannot.
    api.listShipments = async (query, options) => {
      if (++lists > 1) throw new NetworkError({ method: "GET", path: "/api/v1/shipments", mayHaveArrived: false }, "connection refused", {});
      return list(query, options);
    };
    const code = await runCreateItems(h.deps, { ...FLAGS, reference: "LOST-1" }, SEND);
    const err = h.io.stderr();
    expect(err).toContain("Note: the service may have created the items marked unknown (their requests may even still be in progress). ");
    expect(err).toMatch(/To check and finish them, run again \(after a minute if a request timed out\):\n {2}shipctl shipment create --title .Blue Study. --value 1200 .* --reference LOST-1\n/);
    expect(err).toContain("The rerun reads the service's shipments first; nothing is sent twice.");
    expect(code).toBe(7);
  });

  it("the command that checks a lost answer keeps --force-new and --no-wait, as the CSV's does", async () => {
    const h = shipmentHarness();
    h.service.script = ["lost-after-apply"];
    const api = await h.deps.api();
    // --force-new skips the look before sending: the only list read is the read-back, and it cannot be made.
    api.listShipments = async () => {
      throw new NetworkError({ method: "GET", path: "/api/v1/shipments", mayHaveArrived: false }, "connection refused", {});
    };
    const code = await runCreateItems(h.deps, { ...FLAGS, reference: "LOST-2" }, sendOptions({ forceNew: true, wait: false }));
    expect(h.io.stderr()).toMatch(/\n {2}shipctl shipment create --title .* --reference LOST-2 --force-new --no-wait\n/);
    expect(code).toBe(7);
  });

  it("a 422 from the service: exit 6, the field and the service's message", async () => {
    const h = shipmentHarness({ json: true });
    h.service.script = [{ reject: [0] }];
    expect(await runCreateItems(h.deps, FLAGS, SEND)).toBe(6);
    expect(doc(h).failed).toEqual([expect.objectContaining({ item: 1, status: "failed", error: "value: The value is not accepted." })]);
  });
});

describe("shipment create --file", () => {
  it("sends a list of 23 in file order, ten a request, and numbers the items 1..23", async () => {
    const h = shipmentHarness({ json: true });
    const list = items(23);
    const path = writeJson(h, list);
    expect(await runCreateItems(h.deps, { file: path }, SEND)).toBe(0);
    expect(h.service.createCalls.map((c) => c.length)).toEqual([10, 10, 3]);
    expect(h.service.createCalls.flat().map((s) => s.title)).toEqual(list.map((i) => i.title));
    const d = doc(h);
    expect(d.created.map((c) => c.item)).toEqual(list.map((_, i) => i + 1));
    expect(d.counts).toMatchObject({ items: 23, created: 23, failed: 0 });
    expect(inputRecords(stateDirOf(h.dir))).toHaveLength(1);
  });

  it("an answer listing the created shipments in another order gives each item its own shipment (matched by title)", async () => {
    const h = shipmentHarness({ json: true });
    h.service.script = ["ok-reversed"];
    const list = items(3);
    expect(await runCreateItems(h.deps, { file: writeJson(h, list) }, SEND)).toBe(0);
    const byTitle = new Map(h.service.shipments.map((s) => [s.title, s.id]));
    expect(doc(h).created.map((c) => [c.title, c.shipment_id])).toEqual(list.map((i) => [i.title, byTitle.get(i.title as string)]));
  });

  it("an answer in another order that titles cannot match (two items of one title) is read back, not guessed", async () => {
    const h = shipmentHarness({ json: true });
    h.service.script = ["ok-reversed"];
    const list = [item(1, "", { title: "Twin", value: 500 }), item(2, "", { title: "Twin", value: 900 }), item(3, "Other")];
    expect(await runCreateItems(h.deps, { file: writeJson(h, list) }, SEND)).toBe(0);
    expect(h.service.createCalls).toHaveLength(1);
    const byValue = new Map(h.service.shipments.map((s) => [s.value, s.id]));
    expect(doc(h).created.map((c) => [c.item, c.shipment_id])).toEqual([[1, byValue.get(500)], [2, byValue.get(900)], [3, byValue.get(103)]]);
    expect(h.io.stderr()).toContain("reading the service's shipments to see what was created");
  });

  it("reads one shipment, a list, or the request body {shipments: [...]}, and stdin", async () => {
    const one = shipmentHarness();
    expect(await runCreateItems(one.deps, { file: writeJson(one, item(1)) }, SEND)).toBe(0);
    expect(one.service.createCalls.map((c) => c.length)).toEqual([1]);

    const body = shipmentHarness();
    expect(await runCreateItems(body.deps, { file: writeJson(body, { shipments: items(10) }) }, SEND)).toBe(0);
    expect(body.service.createCalls.map((c) => c.length)).toEqual([10]);

    const stdin = shipmentHarness();
    (stdin.io as { stdin: Readable }).stdin = Readable.from([JSON.stringify(items(3, "In"))]);
    expect(await runCreateItems(stdin.deps, { file: "-" }, SEND)).toBe(0);
    expect(stdin.service.createCalls.flat().map((s) => s.title)).toEqual(["In 1", "In 2", "In 3"]);
    expect(inputRecords(stateDirOf(stdin.dir))).toHaveLength(1);
  });

  it("a CSV file given to --file: not JSON, with the flag that reads it", async () => {
    const h = shipmentHarness();
    const path = join(h.dir, "orders.csv");
    writeFileSync(path, "title,value\nBlue Study,1200\n");
    await expect(runCreateItems(h.deps, { file: path }, SEND)).rejects.toMatchObject({ hint: `--file reads JSON; for a CSV file use --csv ${path}` });
  });

  it("flags override those fields of every item; an id flag replaces an inline address", async () => {
    const h = shipmentHarness();
    const list = [item(1, "A", { fulfillment_address_id: undefined, fulfillment_address: GALLERY }), item(2, "A")];
    const path = writeJson(h, list);
    expect(await runCreateItems(h.deps, { file: path, service: "2", fulfillmentAddressId: "7" }, SEND)).toBe(0);
    for (const s of h.service.createCalls[0]!) {
      expect(s).toMatchObject({ service: 2, fulfillment_address_id: 7 });
      expect(s.fulfillment_address).toBeUndefined();
    }
  });

  it("reports every invalid item at once, numbered, and sends nothing (exit 2); --json lists them", async () => {
    const h = shipmentHarness({ json: true });
    const list = items(4);
    list[1]!.value = 20;
    list[3] = { ...list[3], colour: "blue", row: 4, fulfillment_address_id: undefined };
    const path = writeJson(h, list);
    expect(await runCreateItems(h.deps, { file: path }, SEND)).toBe(2);
    expect(h.service.createCalls).toHaveLength(0);
    const err = h.io.stderr();
    expect(err).toContain(`Invalid items in ${path}:`);
    expect(err).toContain("item 2, value: value must be between 50 and 10000 USD (got 20)");
    expect(err).toContain("item 4, colour: is not a known field");
    // A field named "row" is a field of the item (a CSV's "row" problem is one of the whole row).
    expect(err).toContain("item 4, row: is not a known field");
    expect(err).toContain("item 4, fulfillment_address_id: fulfillment_address_id or fulfillment_address is required");
    expect(err).toContain("2 of 4 items are valid.");
    expect(err).toContain("Nothing was sent.");
    expect(doc(h).failed.map((f) => f.item)).toEqual([2, 4]);
    expect(doc(h).failed[0]!.problems).toEqual([{ column: "value", reason: "value must be between 50 and 10000 USD (got 20)" }]);
    // The valid items held back are in not_sent and every item is counted, as a CSV's rows are (they were in no list,
    // and counts.items was 2).
    const all = JSON.parse(h.io.stdout()) as { not_sent: Array<{ item: number; error: string }>; counts: Record<string, number> };
    expect(all.not_sent.map((n) => n.item)).toEqual([1, 3]);
    expect(all.not_sent[0]!.error).toContain("--skip-invalid");
    expect(all.counts).toMatchObject({ items: 4, failed: 2, not_sent: 2 });
    expect(inputRecords(stateDirOf(h.dir))).toEqual([]);
  });

  it("--skip-invalid sends the valid items and exits 8", async () => {
    const h = shipmentHarness();
    const list = items(3);
    list[1] = "not a shipment" as unknown as Record<string, unknown>;
    const path = writeJson(h, list);
    expect(await runCreateItems(h.deps, { file: path }, sendOptions({ skipInvalid: true }))).toBe(8);
    expect(h.io.stderr()).toContain("item 2 must be a shipment (a JSON object), but is a string");
    expect(h.service.createCalls.flat().map((s) => s.title)).toEqual(["Piece 1", "Piece 3"]);
  });

  it("--skip-invalid with every item invalid: nothing sent, exit 2 (not 6: the service refused nothing)", async () => {
    const h = shipmentHarness();
    const path = writeJson(h, ["not a shipment", 7]);
    expect(await runCreateItems(h.deps, { file: path }, sendOptions({ skipInvalid: true }))).toBe(2);
    expect(h.service.createCalls).toHaveLength(0);
  });

  it("refuses a reference used twice, and a list that is empty", async () => {
    const h = shipmentHarness();
    const list = [item(1, "R", { reference: "INV-1" }), item(2, "R", { reference: "INV-1" })];
    expect(await runCreateItems(h.deps, { file: writeJson(h, list) }, SEND)).toBe(2);
    expect(h.io.stderr()).toContain('item 2, reference: reference "INV-1" is also on item 1; references must be unique');
    await expect(runCreateItems(h.deps, { file: writeJson(h, [], "empty.json") }, SEND)).rejects.toThrow("holds an empty list");
  });

  it("a 422 naming one item of ten: that item fails under its field, the other nine go again (exit 8)", async () => {
    const h = shipmentHarness({ json: true });
    h.service.script = [{ reject: [3] }];
    const list = items(10, "Reject");
    expect(await runCreateItems(h.deps, { file: writeJson(h, list) }, SEND)).toBe(8);
    expect(h.service.createCalls.map((c) => c.length)).toEqual([10, 9]);
    expect(doc(h).failed).toEqual([expect.objectContaining({ item: 4, error: "value: The value is not accepted." })]);
    exactlyOnce(h.service, list.filter((_, i) => i !== 3).map((i) => String(i.title)));
  });

  it("a 422 as RFC 9457 problem+json, its errors as {detail, pointer}: the item it points at fails, the other nine go again", async () => {
    const problem = { title: "Unprocessable Content", status: 422, errors: [{ detail: "The value is not accepted.", pointer: "#/shipments/3/value" }] };
    const http = httpStubs().on("POST /api/v1/shipments", reply.json(422, problem, { "content-type": "application/problem+json" }));
    const h = shipmentHarness({ json: true, http });
    const list = items(10, "Pointer");
    expect(await runCreateItems(h.deps, { file: writeJson(h, list) }, SEND)).toBe(8);
    expect(h.service.createCalls.map((c) => c.length)).toEqual([9]);
    expect(doc(h).failed).toEqual([expect.objectContaining({ item: 4, error: "value: The value is not accepted." })]);
    exactlyOnce(h.service, list.filter((_, i) => i !== 3).map((i) => String(i.title)));
  });

  it("names a rejected inline field by its path in the shipment, not its CSV column", async () => {
    const h = shipmentHarness({ json: true });
    const api = await h.deps.api();
    api.createShipments = async () => {
      throw new ValidationError({ method: "POST", path: "/api/v1/shipments", status: 422, mayHaveArrived: false }, "The given data was invalid.", {
        "shipments.0.fulfillment_address.phone": ["The phone is not reachable."],
      });
    };
    const path = writeJson(h, item(1, "P", { fulfillment_address_id: undefined, fulfillment_address: GALLERY }));
    expect(await runCreateItems(h.deps, { file: path }, SEND)).toBe(6);
    expect(doc(h).failed[0]).toMatchObject({
      error: "fulfillment_address.phone: The phone is not reachable.",
      problems: [{ column: "fulfillment_address.phone", reason: "The phone is not reachable." }],
    });
  });

  it("a rerun after an edit skips the items created and sends only the fixed one; a reference keeps an edited item's identity", async () => {
    const service = new FakeShipmentService(instantClock);
    const first = shipmentHarness({ service });
    const list = items(5, "Edit");
    list[2]!.value = 20;
    list[4]!.reference = "INV-5";
    const path = writeJson(first, list);
    expect(await runCreateItems(first.deps, { file: path }, sendOptions({ skipInvalid: true }))).toBe(8);
    expect(service.shipments).toHaveLength(4);

    list[2]!.value = 300;
    list[4]!.value = 999;
    writeJson(first, list);
    const second = shipmentHarness({ service, dir: first.dir, json: true });
    expect(await runCreateItems(second.deps, { file: path }, SEND)).toBe(0);
    expect(service.createCalls.at(-1)!.map((s) => s.title)).toEqual(["Edit 3"]);
    expect(doc(second).skipped.map((s) => s.item)).toEqual([1, 2, 4, 5]);
    exactlyOnce(service, list.map((i) => String(i.title)));
  });

  it("inline addresses: verified once each, phones read into E.164, a recommended revision used only when accepted", async () => {
    const h = shipmentHarness({ json: true });
    const national = { ...GALLERY, phone: "(206) 953-6978", country: "US" };
    const revised = { ...GALLERY, name: "Ada Collector", line_1: "500 Main St" };
    const list = [1, 2, 3].map((n) => item(n, "Inline", { fulfillment_address_id: undefined, fulfillment_address: national }));
    list.push(item(4, "Inline", { destination_address_id: undefined, destination_address: revised }));
    const path = writeJson(h, list);
    expect(await runCreateItems(h.deps, { file: path }, SEND)).toBe(8);
    expect(h.service.verified).toHaveLength(2);
    expect(h.io.stderr()).toContain('Note: "fulfillment_address.phone" of item 1 "(206) 953-6978" read as +12069536978');
    expect(h.service.createCalls.flat().map((s) => s.fulfillment_address?.phone)).toEqual(["+12069536978", "+12069536978", "+12069536978"]);
    expect(doc(h).failed).toEqual([expect.objectContaining({ item: 4, error: expect.stringMatching(/^destination address: .*--accept-recommended/) })]);

    const again = shipmentHarness({ service: h.service, dir: h.dir });
    expect(await runCreateItems(again.deps, { file: path }, sendOptions({ acceptRecommended: true }))).toBe(0);
    // Verdicts come from the ledger: nothing is verified twice.
    expect(h.service.verified).toHaveLength(2);
    expect(h.service.shipments.find((s) => s.title === "Inline 4")!.sent.destination_address?.line_1).toBe("500 Main Street");
  });

  it("an address the service finds invalid fails the items that use it, and nothing is created (exit 6)", async () => {
    const h = shipmentHarness();
    const path = writeJson(h, item(1, "Box", { fulfillment_address_id: undefined, fulfillment_address: { ...GALLERY, line_1: "PO Box 12" } }));
    expect(await runCreateItems(h.deps, { file: path }, SEND)).toBe(6);
    expect(h.service.createCalls).toHaveLength(0);
    expect(h.io.stdout()).toMatch(/failed: fulfillment address: the service found the address invalid: Carriers refuse a PO box\./);
    const none = shipmentHarness({ service: h.service, dir: h.dir });
    expect(await runCreateItems(none.deps, { file: path }, sendOptions({ verify: false }))).toBe(0);
    expect(h.service.createCalls).toHaveLength(1);
  });

  it("--dry-run prints what would be sent, item by item, and writes nothing", async () => {
    const h = shipmentHarness({ json: true });
    const path = writeJson(h, items(12, "Dry"));
    expect(await runCreateItems(h.deps, { file: path }, sendOptions({ dryRun: true }))).toBe(0);
    expect(h.service.createCalls).toHaveLength(0);
    const d = JSON.parse(h.io.stdout()) as { dry_run: boolean; would_send: Array<{ item: number; shipment: { title: string } }>; counts: Record<string, number> };
    expect(d.would_send.map((w) => [w.item, w.shipment.title])).toEqual(items(12, "Dry").map((i, n) => [n + 1, i.title]));
    expect(d.counts).toMatchObject({ items: 12, would_send: 12, requests: 2 });
    expect(inputRecords(stateDirOf(h.dir))).toEqual([]);
  });

  it("--dry-run with an invalid item: the dry run's document, as a CSV's dry run prints it (it printed the run's), exit 2", async () => {
    const h = shipmentHarness({ json: true });
    const list = items(3, "Dry");
    list[1]!.value = 20;
    const path = writeJson(h, list);
    expect(await runCreateItems(h.deps, { file: path }, sendOptions({ dryRun: true }))).toBe(2);
    expect(h.service.createCalls).toHaveLength(0);
    const d = JSON.parse(h.io.stdout()) as { dry_run: boolean; invalid: Array<{ item: number }>; not_sent: Array<{ item: number }>; counts: Record<string, number> };
    expect(d.dry_run).toBe(true);
    expect(d.invalid.map((i) => i.item)).toEqual([2]);
    expect(d.not_sent.map((i) => i.item)).toEqual([1, 3]);
    expect(d.counts).toMatchObject({ items: 3, would_send: 0, invalid: 1, not_sent: 2, requests: 0 });
    expect(h.io.stderr()).toContain("Dry run: the run would send nothing: 1 item is invalid");
    expect(inputRecords(stateDirOf(h.dir))).toEqual([]);
  });

  it("stops at Ctrl-C with the command that resumes (exit 130); the rerun finishes, every item once", async () => {
    const h = shipmentHarness();
    const list = items(40, "Stop");
    const path = writeJson(h, list);
    const api = await h.deps.api();
    const create = api.createShipments.bind(api);
    let calls = 0;
    api.createShipments = async (shipments, options) => {
      const answer = await create(shipments, options);
      if (++calls === 2) h.controller.abort();
      return answer;
    };
    expect(await runCreateItems(h.deps, { file: path, fulfillmentAddressId: "12" }, sendOptions({ concurrency: "1" }))).toBe(130);
    expect(h.io.stderr()).toContain(`To resume:\n  shipctl shipment create --file ${path} --fulfillment-address-id 12 --concurrency 1`);
    expect(h.service.shipments).toHaveLength(20);
    expect(heldLocks(stateDirOf(h.dir))).toEqual([]);

    const resumed = shipmentHarness({ service: h.service, dir: h.dir });
    expect(await runCreateItems(resumed.deps, { file: path, fulfillmentAddressId: "12" }, SEND)).toBe(0);
    exactlyOnce(h.service, list.map((i) => String(i.title)));
    expect(onlyInputRecord(h.dir)).toContain('"state":"created"');
  });
});
