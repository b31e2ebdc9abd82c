// The writes `shipctl api` refuses (create shipments, add an address, pay, store a report), matched on what a
// server could route rather than on how the path was written, and the method overrides that could turn a request
// into one of them.
import { describe, expect, it } from "vitest";
import { resolveApiTarget } from "../../../src/raw-api/api-target.js";
import { guardedEndpoint, methodOverridden, normalisedPath, refuseGuardedWrite } from "../../../src/raw-api/guarded-writes.js";
import type { HttpMethod } from "../../../src/api/transport.js";
import { UsageError } from "../../../src/errors.js";

const BASE = new URL("https://api.example.com");

/** The endpoint guarded for this command line (path as typed, through the same resolution the command uses). */
function guarded(method: HttpMethod, path: string, extra: { headers?: Record<string, string>; json?: unknown; base?: URL } = {}) {
  const base = extra.base ?? BASE;
  return guardedEndpoint({ method, url: resolveApiTarget(path, base), headers: extra.headers ?? {}, json: extra.json }, base)?.endpoint;
}

describe("guardedEndpoint: every spelling of the four writes is caught", () => {
  const table: Array<[HttpMethod, string, string]> = [
    ["POST", "/api/v1/checkout", "POST /api/v1/checkout"],
    ["POST", "api/v1/checkout", "POST /api/v1/checkout"],
    ["POST", "/api/v1/checkout/", "POST /api/v1/checkout"],
    ["POST", "/API/V1/CHECKOUT", "POST /api/v1/checkout"],
    ["POST", "//api//v1///checkout//", "POST /api/v1/checkout"],
    ["POST", "/api/v1/./checkout", "POST /api/v1/checkout"],
    ["POST", "/api/v1/shipments/../checkout", "POST /api/v1/checkout"],
    ["POST", "/api/v1/shipments/..%2Fcheckout", "POST /api/v1/checkout"],
    ["POST", "/api/v1/x%2F..%2F..%2Fv1%2Fcheckout", "POST /api/v1/checkout"],
    ["POST", "/api/v1/%2e%2e/v1/checkout", "POST /api/v1/checkout"],
    ["POST", "/api/v1/%63heckout", "POST /api/v1/checkout"],
    ["POST", "/api/v1/%2563heckout", "POST /api/v1/checkout"],
    ["POST", "/api%2Fv1%2Fcheckout", "POST /api/v1/checkout"],
    ["POST", "/api/v1\\checkout", "POST /api/v1/checkout"],
    ["POST", "/api/v1/checkout;jsessionid=1", "POST /api/v1/checkout"],
    ["POST", "/api/v1/checkout%20", "POST /api/v1/checkout"],
    ["POST", "/api/v1/checkout?shipments[]=1", "POST /api/v1/checkout"],
    ["POST", "/api/v1/checkout#fragment", "POST /api/v1/checkout"],
    ["POST", "https://api.example.com/api/v1/checkout", "POST /api/v1/checkout"],
    ["POST", "https://API.EXAMPLE.COM:443/api/v1/checkout", "POST /api/v1/checkout"],
    ["PUT", "/api/v1/checkout", "POST /api/v1/checkout"],
    ["POST", "/api/v1/shipments", "POST /api/v1/shipments"],
    ["POST", "/Api/V1/Shipments/", "POST /api/v1/shipments"],
    ["POST", "/api/v1/shipments/12/..", "POST /api/v1/shipments"],
    ["POST", "/api/v1/addresses", "POST /api/v1/addresses"],
    ["POST", "/api/v1/addresses/verify/..", "POST /api/v1/addresses"],
    ["POST", "/api/v1/reports/12/1", "POST /api/v1/reports/{id}/{set}"],
    ["POST", "/api/v1/reports/12/2/", "POST /api/v1/reports/{id}/{set}"],
    ["POST", "/api/v1/REPORTS/%31%32/2", "POST /api/v1/reports/{id}/{set}"],
    ["POST", "/api/v1/reports/12", "POST /api/v1/reports/{id}/{set}"],
  ];
  it.each(table)("%s %s is %s", (method, path, endpoint) => {
    expect(guarded(method, path)).toBe(endpoint);
  });

  it("under a base URL with a path of its own, with the path relative or absolute", () => {
    const base = new URL("https://host.example/shipping/");
    expect(guarded("POST", "/api/v1/checkout", { base })).toBe("POST /api/v1/checkout");
    expect(guarded("POST", "https://host.example/shipping/api/v1/checkout", { base })).toBe("POST /api/v1/checkout");
    expect(guarded("POST", "https://host.example/api/v1/checkout", { base })).toBe("POST /api/v1/checkout");
    expect(guarded("POST", "../api/v1/checkout", { base })).toBe("POST /api/v1/checkout");
  });
});

describe("guardedEndpoint: what goes through", () => {
  const table: Array<[HttpMethod, string]> = [
    ["GET", "/api/v1/checkout"],
    ["GET", "/api/v1/shipments"],
    ["GET", "/api/v1/reports/12/1"],
    ["PATCH", "/api/v1/shipments/12"],
    ["PATCH", "/api/v1/addresses/3"],
    ["POST", "/api/v1/addresses/verify"],
    ["POST", "/api/v1/checkoutx"],
    ["POST", "/api/v1/shipmentsx"],
    ["POST", "/api/v2/checkout"],
    ["DELETE", "/api/v1/shipments/12"],
    ["POST", "/_sandbox/shipments/seed"],
  ];
  it.each(table)("%s %s", (method, path) => {
    expect(guarded(method, path)).toBeUndefined();
  });
});

describe("method overrides", () => {
  it("a header naming a method makes even a GET or PATCH a guarded write", () => {
    for (const name of ["x-http-method-override", "x-http-method", "x-method-override"]) {
      expect(guarded("GET", "/api/v1/checkout", { headers: { [name]: "POST" } })).toBe("POST /api/v1/checkout");
      expect(guarded("PATCH", "/api/v1/shipments", { headers: { [name]: "post" } })).toBe("POST /api/v1/shipments");
    }
  });

  it("_method in the query or the body, however it is encoded", () => {
    expect(guarded("GET", "/api/v1/checkout?_method=POST")).toBe("POST /api/v1/checkout");
    expect(guarded("GET", "/api/v1/checkout?%5Fmethod=POST")).toBe("POST /api/v1/checkout");
    expect(guarded("GET", "/api/v1/checkout?_METHOD=post")).toBe("POST /api/v1/checkout");
    expect(guarded("PUT", "/api/v1/addresses", { json: { _method: "POST" } })).toBe("POST /api/v1/addresses");
    // A JSON body that a form parser would read as _method=POST (with Content-Type changed by -H).
    expect(guarded("PATCH", "/api/v1/checkout", { json: { a: "&%255Fmethod=POST&" } })).toBe("POST /api/v1/checkout");
  });

  it("an override anywhere else is not refused, but the request is no longer a plain GET", () => {
    const url = new URL("https://api.example.com/api/v1/shipments/3?_method=PATCH");
    expect(methodOverridden({ method: "GET", url, headers: {}, json: undefined })).toBe(true);
    expect(guardedEndpoint({ method: "GET", url, headers: {}, json: undefined }, BASE)).toBeUndefined();
    expect(methodOverridden({ method: "GET", url: new URL("https://api.example.com/api/v1/shipments"), headers: { accept: "x" }, json: { a: 1 } })).toBe(false);
  });
});

describe("refuseGuardedWrite", () => {
  it("is a usage error naming the command that does it safely", () => {
    const attempt = () =>
      refuseGuardedWrite({ method: "POST", url: new URL("https://api.example.com/api/v1/checkout"), headers: {}, json: { shipments: [1] } }, BASE);
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(/does not send POST to \/api\/v1\/checkout: POST \/api\/v1\/checkout charges the organization's card/);
    try {
      attempt();
    } catch (err) {
      expect((err as UsageError).hint).toContain("`shipctl checkout`");
    }
  });

  it("names each command", () => {
    const hintFor = (path: string) => {
      try {
        refuseGuardedWrite({ method: "POST", url: new URL(path, BASE), headers: {}, json: undefined }, BASE);
      } catch (err) {
        return (err as UsageError).hint;
      }
      return undefined;
    };
    expect(hintFor("/api/v1/shipments")).toContain("shipctl shipment create --file");
    expect(hintFor("/api/v1/addresses")).toContain("shipctl address add");
    expect(hintFor("/api/v1/reports/1/2")).toContain("shipctl report upload");
    expect(hintFor("/api/v1/addresses/verify")).toBeUndefined();
  });
});

describe("normalisedPath", () => {
  it("undoes encoding, case, dot segments and slashes", () => {
    expect(normalisedPath("/A/./b/../C//d/")).toBe("/a/c/d");
    expect(normalisedPath("/%2E%2E/%2e/x")).toBe("/x");
    expect(normalisedPath("/bad%zzencoding")).toBe("/bad%zzencoding");
  });
});
