// Where `shipctl api` sends: paths under the base URL, URLs only on its origin.
import { describe, expect, it } from "vitest";
import { parseHttpMethod, resolveApiTarget } from "../../../src/raw-api/api-target.js";
import { UsageError } from "../../../src/errors.js";

describe("resolveApiTarget", () => {
  const base = new URL("https://api.example.com:8443/svc/");

  it("reads a path, with or without its leading slash, under the base URL's path", () => {
    expect(resolveApiTarget("/api/v1/shipments?limit=5", base).href).toBe("https://api.example.com:8443/svc/api/v1/shipments?limit=5");
    expect(resolveApiTarget("api/v1/shipments", base).href).toBe("https://api.example.com:8443/svc/api/v1/shipments");
  });

  it("keeps a path that looks like another host on the base URL", () => {
    expect(resolveApiTarget("//evil.example/api", base).origin).toBe(base.origin);
    expect(resolveApiTarget("\\\\evil.example/api", base).origin).toBe(base.origin);
    expect(resolveApiTarget("/@evil.example/api", base).origin).toBe(base.origin);
  });

  it("takes a URL on the base URL's origin as it is", () => {
    expect(resolveApiTarget("https://api.example.com:8443/api/v1/shipments", base).pathname).toBe("/api/v1/shipments");
  });

  it("refuses a URL on any other origin: scheme, host or port", () => {
    for (const url of [
      "https://evil.example/api/v1/shipments",
      "http://api.example.com:8443/api/v1/shipments",
      "https://api.example.com/api/v1/shipments",
      "https://api.example.com.evil.example:8443/x",
      "file:///etc/passwd",
      "javascript:alert(1)",
    ]) {
      expect(() => resolveApiTarget(url, base), url).toThrow(UsageError);
    }
    expect(() => resolveApiTarget("https://evil.example/x", base)).toThrow(/sends the token only there/);
  });

  it("refuses an empty path", () => {
    expect(() => resolveApiTarget("  ", base)).toThrow(/path is empty/);
  });
});

describe("parseHttpMethod", () => {
  it("takes the five methods in any case", () => {
    expect(["get", "Post", "PATCH", "put", "delete"].map(parseHttpMethod)).toEqual(["GET", "POST", "PATCH", "PUT", "DELETE"]);
  });
  it("refuses others, listing the five", () => {
    expect(() => parseHttpMethod("HEAD")).toThrow('"HEAD" is not a method shipctl api sends: use GET, POST, PATCH, PUT, DELETE');
  });
});
