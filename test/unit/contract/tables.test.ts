import { describe, expect, it } from "vitest";
import { SANDBOX_COUNTRIES, SANDBOX_SERVICES, checkoutStatusName, lookupCountry, lookupService, shipmentStatusFromName, shipmentStatusName, verificationStatusName } from "../../../src/contract/index.js";

describe("country and service tables", () => {
  it("reads a country as the integer, an alpha-2 or alpha-3 code, or a name, forgiving case and accents", () => {
    expect(lookupCountry(SANDBOX_COUNTRIES, "1")).toMatchObject({ ok: true, id: 1, via: "integer" });
    expect(lookupCountry(SANDBOX_COUNTRIES, "us")).toMatchObject({ ok: true, id: 1, via: "code" });
    expect(lookupCountry(SANDBOX_COUNTRIES, "GBR")).toMatchObject({ ok: true, id: 3, via: "code" });
    expect(lookupCountry(SANDBOX_COUNTRIES, "united states of america")).toMatchObject({ ok: true, id: 1, via: "name" });
    expect(lookupCountry(SANDBOX_COUNTRIES, "Espana")).toMatchObject({ ok: true, id: 7 });
    expect(lookupCountry(SANDBOX_COUNTRIES, "España")).toMatchObject({ ok: true, id: 7 });
  });

  it("accepts any positive integer even when the table does not list it, and nothing else unknown", () => {
    expect(lookupCountry([], "250")).toMatchObject({ ok: true, id: 250 });
    expect(lookupCountry(SANDBOX_COUNTRIES, "0")).toMatchObject({ ok: false });
    expect(lookupCountry(SANDBOX_COUNTRIES, "-1")).toMatchObject({ ok: false });
    expect(lookupCountry(SANDBOX_COUNTRIES, "Atlantis")).toMatchObject({ ok: false });
    expect(lookupCountry([], "US")).toMatchObject({ ok: false });
  });

  it("reads a service by integer, name or alias", () => {
    expect(lookupService(SANDBOX_SERVICES, "white-glove")).toMatchObject({ ok: true, id: 3 });
    expect(lookupService(SANDBOX_SERVICES, "2")).toMatchObject({ ok: true, id: 2 });
    const miss = lookupService(SANDBOX_SERVICES, "Overnight");
    expect(miss.ok).toBe(false);
    if (!miss.ok) expect(miss.reason).toContain("Standard, Express, White Glove");
  });

  it("names shipment statuses both ways, Completed being 12", () => {
    expect(shipmentStatusName(12)).toBe("Completed");
    expect(shipmentStatusName(9)).toBe("Drop-Off");
    expect(shipmentStatusName(99)).toBe("Unknown (99)");
    const names = ["Draft", "Confirmed", "Pending", "Allocated", "Scheduled", "Dispatched", "Delivered", "Filed"];
    names.push("Drop-Off", "Shipped", "Arrived", "Completed");
    expect(names.map((_, i) => shipmentStatusName(i + 1))).toEqual(names);
    expect([0, 1, 2, 3].map(verificationStatusName)).toEqual(["Rate Limited", "Unverified", "Invalid", "Recommended"]);
    expect([0, 1, 2].map(checkoutStatusName)).toEqual(["Rate Limited", "Failed", "Unknown (2)"]);
    expect(shipmentStatusFromName("drop off")).toBe(9);
    expect(shipmentStatusFromName("ARRIVED")).toBe(11);
  });
});
