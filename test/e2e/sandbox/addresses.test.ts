// Addresses: every field's length at both edges, verification verdicts, create, update, read and list.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDRESS_LENGTHS, TIMESTAMP } from "../../../src/contract/index.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { address, emailOfLength, phoneOfLength, send, text } from "./support.js";

let sb: TestSandbox;
let org: OrgTarget;
beforeAll(async () => {
  sb = await startTestSandbox({ clock: () => new Date("2025-03-04T05:06:07.890Z") });
  org = await sb.newOrg();
});
afterAll(() => sb.close());

/** A value of the field with exactly n characters that is otherwise valid. */
function ofLength(field: keyof typeof ADDRESS_LENGTHS, n: number): string {
  if (field === "email") return emailOfLength(n);
  if (field === "phone") return phoneOfLength(n);
  return text(n, "b");
}

describe("field lengths (Address table, inclusive edges) on create, update, verify and inline", () => {
  const fields = Object.keys(ADDRESS_LENGTHS) as Array<keyof typeof ADDRESS_LENGTHS>;
  for (const field of fields) {
    const { min, max } = ADDRESS_LENGTHS[field];
    it(`${field}: ${min} and ${max} accepted, ${min - 1} and ${max + 1} refused`, async () => {
      // E.164 allows 15 digits: the longest valid phone is 16 characters (tested below).
      for (const n of field === "phone" ? [min] : [min, max]) {
        const r = await send(org, "POST", "/api/v1/addresses", { json: address({ [field]: ofLength(field, n) }) });
        expect(r.status, `${field} of ${n}`).toBe(201);
      }
      for (const n of [min - 1, max + 1]) {
        // email and phone below their minimum cannot be well-formed either: only the key matters here.
        if (n < 1) continue;
        const r = await send(org, "POST", "/api/v1/addresses", { json: address({ [field]: ofLength(field, n) }) });
        expect(r.status, `${field} of ${n}`).toBe(422);
        expect(Object.keys(r.body.errors)).toEqual([field]);
        expect(r.body.errors[field][0]).toMatch(new RegExp(`^The ${field} field `));
      }
    });
  }

  it("applies the same bounds to update, verify and inline shipment addresses", async () => {
    const id = (await send(org, "POST", "/api/v1/addresses", { json: address() })).body.id;
    const long = address({ city: text(ADDRESS_LENGTHS.city.max + 1) });
    expect((await send(org, "PATCH", `/api/v1/addresses/${id}`, { json: long })).body.errors).toHaveProperty("city");
    expect((await send(org, "POST", "/api/v1/addresses/verify", { json: long })).status).toBe(422);
    const inline = await send(org, "POST", "/api/v1/shipments", {
      json: { shipments: [{ title: "Vase", value: 100, length: 20, height: 20, depth: 2, service: 1, fulfillment_address: long, destination_address: address() }] },
    });
    expect(Object.keys(inline.body.errors)).toEqual(["shipments.0.fulfillment_address.city"]);
  });

  it("phone: E.164 caps it at 16 characters (+ and 15 digits), below the table's 30; 31 is refused by length", async () => {
    expect((await send(org, "POST", "/api/v1/addresses", { json: address({ phone: phoneOfLength(16) }) })).status).toBe(201);
    for (const n of [17, 30]) {
      const r = await send(org, "POST", "/api/v1/addresses", { json: address({ phone: phoneOfLength(n) }) });
      expect(r.body.errors.phone[0], `phone of ${n}`).toContain("E.164");
    }
    const long = await send(org, "POST", "/api/v1/addresses", { json: address({ phone: phoneOfLength(31) }) });
    expect(long.body.errors.phone[0]).toContain("at most 30 characters");
  });

  it("counts characters, not bytes (a 50-character name in accented letters is fine)", async () => {
    const r = await send(org, "POST", "/api/v1/addresses", { json: address({ name: "é".repeat(50) }) });
    expect(r.status).toBe(201);
  });

  it("refuses a phone that is not E.164 and an email without a domain", async () => {
    const r = await send(org, "POST", "/api/v1/addresses", { json: address({ phone: "206 555 0100", email: "ada-at-example" }) });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors).sort()).toEqual(["email", "phone"]);
  });

  it("refuses a country outside the sandbox table with the framework's wording", async () => {
    const r = await send(org, "POST", "/api/v1/addresses", { json: address({ country: 999 }) });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({ country: ["The selected country is invalid."] });
    expect(r.body.message).toBe("The selected country is invalid.");
  });

  it("accepts line_2 absent or null, and stores it as null", async () => {
    const id = (await send(org, "POST", "/api/v1/addresses", { json: address({ line_2: null }) })).body.id;
    expect((await send(org, "GET", `/api/v1/addresses/${id}`)).body.data.line_2).toBeNull();
  });

  it('reads line_2 "" as absent (the framework turns empty strings into null) on create, update, verify and inline', async () => {
    const created = await send(org, "POST", "/api/v1/addresses", { json: address({ line_2: "" }) });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await send(org, "GET", `/api/v1/addresses/${id}`)).body.data.line_2).toBeNull();

    await send(org, "PATCH", `/api/v1/addresses/${id}`, { json: address({ line_2: "Suite 5" }) });
    expect((await send(org, "PATCH", `/api/v1/addresses/${id}`, { json: address({ line_2: "" }) })).status).toBe(204);
    expect((await send(org, "GET", `/api/v1/addresses/${id}`)).body.data.line_2).toBeNull();

    expect((await send(org, "POST", "/api/v1/addresses/verify", { json: address({ line_2: "" }) })).status).toBe(200);
    // Whitespace only is empty too (the framework trims strings before turning empty ones into null).
    expect((await send(org, "POST", "/api/v1/addresses/verify", { json: address({ line_2: "   " }) })).status).toBe(200);

    const inline = address({ line_2: "" });
    const shipped = await send(org, "POST", "/api/v1/shipments", {
      json: { shipments: [{ title: "Vase", value: 100, length: 20, height: 20, depth: 2, service: 1, fulfillment_address: inline, destination_address: inline }] },
    });
    expect(shipped.status).toBe(201);
    const read = (await send(org, "GET", `/api/v1/shipments/${shipped.body.shipments[0].id}`)).body.data;
    expect([read.fulfillment_address.line_2, read.destination_address.line_2]).toEqual([null, null]);
  });

  it('still refuses "" in a required field, as required', async () => {
    const r = await send(org, "POST", "/api/v1/addresses", { json: address({ name: "", line_2: "" }) });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({ name: ["The name field is required."] });
  });
});

describe("POST /api/v1/addresses/verify", () => {
  it("answers 200 with an empty body for a valid address", async () => {
    const r = await send(org, "POST", "/api/v1/addresses/verify", { json: address() });
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
  });

  it.each([
    ["PO Box 12", "PO box"],
    ["P.O. Box 77", "PO box"],
    ["post office box 3", "PO box"],
    ["12 Drop Box Lane", "drop box"],
    ["Unit 2050 Box 4190 APO", "APO/FPO/DPO"],
    ["1 Fairchild Air Force Base", "military base"],
    ["17801 International Blvd Airport", "airport"],
    ["Union Train Station 3", "bus or train station"],
    ["Greyhound Bus Terminal", "bus or train station"],
    ["US Federal Building 915", "government building"],
  ])("refuses %s: 400 status 2 Invalid, recommended false, naming the reason", async (line, reason) => {
    const sent = address({ line_1: line });
    const r = await send(org, "POST", "/api/v1/addresses/verify", { json: sent });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ ...sent, status: 2, recommended: false });
    expect(r.body.message).toContain(reason);
  });

  it("refuses the refused kinds in line_2 as well", async () => {
    const r = await send(org, "POST", "/api/v1/addresses/verify", { json: address({ line_2: "po box 9" }) });
    expect(r.body).toMatchObject({ status: 2, recommended: false, line_2: "po box 9" });
  });

  it.each([
    ["post_code 00000", { post_code: "00000" }],
    ["city Nowhere", { city: "NOWHERE" }],
    ["a region that is not a US state", { region: "Narnia" }],
    ["a US post code that is not a ZIP", { post_code: "SW1A 1AA" }],
  ])("answers status 2 for %s", async (_label, change) => {
    const r = await send(org, "POST", "/api/v1/addresses/verify", { json: address(change) });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ status: 2, recommended: false });
  });

  it("recommends a revised address (status 3) and echoes name, email, phone and country as sent", async () => {
    const sent = address({ line_1: "123 main st", line_2: "apt 4", city: "seattle", region: "washington", post_code: "98101 1234" });
    const r = await send(org, "POST", "/api/v1/addresses/verify", { json: sent });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      name: sent.name,
      email: sent.email,
      phone: sent.phone,
      line_1: "123 Main Street",
      line_2: "Apt 4",
      city: "Seattle",
      region: "WA",
      post_code: "98101-1234",
      country: 1,
      recommended: true,
      status: 3,
      message: expect.stringContaining('line_1 "123 main st" -> "123 Main Street"'),
    });
  });

  it.each([
    ["Ave.", { line_1: "9 Pine Ave." }, { line_1: "9 Pine Avenue" }],
    ["a lower-case state code", { region: "wa" }, { region: "WA" }],
    ["a 9-digit ZIP", { post_code: "981011234" }, { post_code: "98101-1234" }],
    ["a lower-case UK post code", { country: 3, region: "London", post_code: "sw1a 1aa" }, { post_code: "SW1A 1AA" }],
  ])("recommends for %s", async (_label, change, expected) => {
    const r = await send(org, "POST", "/api/v1/addresses/verify", { json: address(change) });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ status: 3, recommended: true, ...expected });
  });

  it("answers status 0 (Rate Limited) for the next N verifications when switched on, then verifies again", async () => {
    const o = await sb.newOrg();
    await o.control.rateLimitVerifications(2);
    for (let i = 0; i < 2; i++) {
      const r = await send(o, "POST", "/api/v1/addresses/verify", { json: address() });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ ...address(), status: 0, recommended: false });
    }
    expect((await send(o, "POST", "/api/v1/addresses/verify", { json: address() })).status).toBe(200);
  });

  it("validates the body before verifying (422)", async () => {
    const r = await send(org, "POST", "/api/v1/addresses/verify", { json: address({ name: "A" }) });
    expect(r.status).toBe(422);
  });
});

describe("create, update, read", () => {
  it("POST answers 201 {id}; GET wraps the address in data with UTC timestamps from the sandbox clock", async () => {
    const sent = address({ line_2: "Suite 5" });
    const created = await send(org, "POST", "/api/v1/addresses", { json: sent });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number) });
    const read = await send(org, "GET", `/api/v1/addresses/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: { id: created.body.id, ...sent, created_at: "2025-03-04 05:06:07", updated_at: "2025-03-04 05:06:07" } });
    expect(read.body.data.created_at).toMatch(TIMESTAMP);
  });

  it("PATCH answers 204 and replaces the fields, moving updated_at only", async () => {
    const o = await sb.newOrg();
    const id = (await send(o, "POST", "/api/v1/addresses", { json: address() })).body.id;
    await o.control.offsetClock(3_600_000);
    const r = await send(o, "PATCH", `/api/v1/addresses/${id}`, { json: address({ city: "Tacoma", line_2: "Floor 2" }) });
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    const read = (await send(o, "GET", `/api/v1/addresses/${id}`)).body.data;
    expect(read).toMatchObject({ city: "Tacoma", line_2: "Floor 2", created_at: "2025-03-04 05:06:07", updated_at: "2025-03-04 06:06:07" });
  });

  it("PATCH needs the full body (same required fields as create)", async () => {
    const id = (await send(org, "POST", "/api/v1/addresses", { json: address() })).body.id;
    const r = await send(org, "PATCH", `/api/v1/addresses/${id}`, { json: { city: "Tacoma" } });
    expect(r.status).toBe(422);
    expect(r.body.errors).toHaveProperty("name");
  });

  it("PATCH of an unknown id is 404", async () => {
    expect((await send(org, "PATCH", "/api/v1/addresses/987654", { json: address() })).status).toBe(404);
  });

  it("GET /api/v1/addresses lists the organization's addresses in id order", async () => {
    const o = await sb.newOrg();
    const ids: number[] = [];
    for (const name of ["One Name", "Two Name", "Three Name"]) ids.push((await send(o, "POST", "/api/v1/addresses", { json: address({ name }) })).body.id);
    const page = await send(o, "GET", "/api/v1/addresses?limit=2");
    expect(page.body.data.map((a: { id: number }) => a.id)).toEqual(ids.slice(0, 2));
    expect(page.body.meta).toMatchObject({ current_page: 1, from: 1, to: 2, per_page: 2, path: `${sb.url}/api/v1/addresses` });
    const next = await send(o, "GET", new URL(page.body.links.next).pathname + new URL(page.body.links.next).search);
    expect(next.body.data.map((a: { id: number }) => a.id)).toEqual(ids.slice(2));
    expect(next.body.links.next).toBeNull();
  });
});
