import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/errors.js";
import { readShipmentInput } from "../../../src/input/shipment-input.js";
import { GALLERY, SHIPMENT_FLAGS } from "../../helpers/gallery.js";
import { testDeps } from "../../helpers/deps.js";
import { UNCONFIRMED_TABLES } from "../../../src/config/profile-tables.js";

const dir = mkdtempSync(join(tmpdir(), "shipctl-shipment-"));
function file(name: string, content: unknown): string {
  writeFileSync(join(dir, name), JSON.stringify(content));
  return name;
}

const FLAGS = SHIPMENT_FLAGS;
const SHIPMENT = {
  title: "Blue Study",
  value: 1200,
  length: 30,
  height: 24,
  depth: 3,
  service: 1,
  fulfillment_address_id: 12,
  destination_address_id: 15,
};

async function failure(promise: Promise<unknown>): Promise<UsageError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  return err as UsageError;
}

describe("readShipmentInput", () => {
  it("builds the shipment from flags, numbers as numbers, without a table look-up", async () => {
    const t = testDeps();
    expect(await readShipmentInput(t.deps, FLAGS)).toEqual(SHIPMENT);
    expect(t.tablesLoads()).toBe(0);
  });

  it("names every missing field with its flag (an update needs them all)", async () => {
    const t = testDeps();
    const err = await failure(readShipmentInput(t.deps, { title: "Blue Study", value: "1200" }));
    for (const line of [
      "  length (--length): is required",
      "  height (--height): is required",
      "  depth (--depth): is required",
      "  service (--service): is required",
      "  fulfillment_address_id (--fulfillment-address-id): fulfillment_address_id or fulfillment_address is required",
      "  destination_address_id (--destination-address-id): destination_address_id or destination_address is required",
    ]) {
      expect(err.message).toContain(line);
    }
    expect(err.hint).toContain("every field");
  });

  it("states each bound that is broken", async () => {
    const t = testDeps();
    const err = await failure(readShipmentInput(t.deps, { ...FLAGS, value: "12.5", depth: "5", height: "tall" }));
    expect(err.message).toContain("  value (--value): value must be a whole number (got 12.5)");
    expect(err.message).toContain("  depth (--depth): depth must be between 1 and 4 inches (got 5)");
    expect(err.message).toContain('  height (--height): height must be a whole number (got "tall")');
  });

  it("takes an address id flag in plain digits only, as `address get` and a CSV's id columns do", async () => {
    // "--fulfillment-address-id 1.0" was sent as address 1, while `address get 1.0` and a CSV cell "1.0" are refused.
    const t = testDeps();
    const ids = { fulfillmentAddressId: "12.0", destinationAddressId: "15.5" };
    const err = await failure(readShipmentInput(t.deps, { ...FLAGS, ...ids }));
    expect(err.message).toContain(
      '  fulfillment_address_id (--fulfillment-address-id): fulfillment_address_id must be a whole number (got "12.0")',
    );
    expect(err.message).toContain(
      '  destination_address_id (--destination-address-id): destination_address_id must be a whole number (got "15.5")',
    );
    const zeroFirst = await readShipmentInput(t.deps, { ...FLAGS, fulfillmentAddressId: "012" });
    expect(zeroFirst).toMatchObject({ fulfillment_address_id: 12 });
  });

  it("takes inline addresses from a file, with country codes and national phones read like `address add`", async () => {
    const t = testDeps({ cwd: dir });
    const name = file("s.json", {
      ...SHIPMENT,
      fulfillment_address_id: undefined,
      fulfillment_address: { ...GALLERY, country: "US", phone: "(206) 953-6978" },
    });
    const shipment = await readShipmentInput(t.deps, { file: name });
    expect(shipment.fulfillment_address).toEqual(GALLERY);
    expect(shipment.destination_address_id).toBe(15);
    expect(t.io.stderr()).toContain('"fulfillment_address.phone" in s.json "(206) 953-6978" read as +12069536978');
  });

  it("lets an id flag replace the file's inline address for that side, and flags override fields", async () => {
    const t = testDeps({ cwd: dir });
    const name = file("inline.json", { ...SHIPMENT, fulfillment_address_id: undefined, fulfillment_address: GALLERY });
    const shipment = await readShipmentInput(t.deps, { file: name, fulfillmentAddressId: "44", value: "1500" });
    expect(shipment).toEqual({ ...SHIPMENT, fulfillment_address_id: 44, value: 1500 });
  });

  it("refuses both an id and an inline address for one side in a file", async () => {
    const t = testDeps({ cwd: dir });
    const name = file("both.json", { ...SHIPMENT, destination_address: GALLERY });
    const err = await failure(readShipmentInput(t.deps, { file: name }));
    expect(err.message).toContain("  destination_address: give either destination_address_id or destination_address, not both");
  });

  it("reports a bad field of an inline address by its path", async () => {
    const t = testDeps({ cwd: dir });
    const name = file("badinline.json", { ...SHIPMENT, destination_address_id: undefined, destination_address: { ...GALLERY, post_code: "" } });
    const err = await failure(readShipmentInput(t.deps, { file: name }));
    expect(err.message).toContain("  destination_address.post_code: post_code is required");
  });

  it("names an unknown service name beside the other bad fields, in one report", async () => {
    const err = await failure(readShipmentInput(testDeps().deps, { ...FLAGS, service: "Overnight", depth: "5" }));
    expect(err.message).toMatch(/^The shipment has 2 problems, so nothing was sent:/);
    expect(err.message).toContain("  depth (--depth): depth must be between 1 and 4 inches (got 5)");
    expect(err.message).toMatch(/ {2}service \(--service\): .*"Overnight"/);
  });

  it("resolves a service name through the table, and refuses it when the table is unconfirmed", async () => {
    expect((await readShipmentInput(testDeps().deps, { ...FLAGS, service: "Express" })).service).toBe(2);
    const err = await failure(readShipmentInput(testDeps({ tables: UNCONFIRMED_TABLES }).deps, { ...FLAGS, service: "Express" }));
    expect(err.message).toMatch(/^--service: "Express" is a service name or code, but no service table is confirmed/);
  });
});
