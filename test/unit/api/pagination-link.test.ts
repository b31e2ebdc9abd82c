// links.next is followed only on the base URL's origin; an http link from behind a TLS-terminating proxy is the
// same service and is followed over https on the base URL's origin.
import { describe, expect, it } from "vitest";
import { UnexpectedResponseError } from "../../../src/api/api-errors.js";
import { followableLink } from "../../../src/api/pagination-link.js";

const same = (s: string) => s;

describe("followableLink", () => {
  it("follows a link on the base URL's origin, and reads a relative one against it", () => {
    const base = new URL("https://api.example.com");
    expect(followableLink("https://api.example.com/api/v1/shipments?page=2", base, same).href).toBe("https://api.example.com/api/v1/shipments?page=2");
    expect(followableLink("/api/v1/shipments?page=3&limit=50", base, same).href).toBe("https://api.example.com/api/v1/shipments?page=3&limit=50");
  });

  it("an http link for an https base on the same host and port: followed on the base URL's origin (over TLS)", () => {
    expect(followableLink("http://api.example.com/api/v1/shipments?page=2&limit=50", new URL("https://api.example.com"), same).href).toBe(
      "https://api.example.com/api/v1/shipments?page=2&limit=50",
    );
    expect(followableLink("http://api.example.com:8443/api/v1/addresses?page=2", new URL("https://api.example.com:8443/"), same).href).toBe(
      "https://api.example.com:8443/api/v1/addresses?page=2",
    );
  });

  it("refuses other hosts, other ports, and an https link for an http base", () => {
    const base = new URL("https://api.example.com");
    for (const link of [
      "https://evil.example/api/v1/shipments?page=2",
      "http://evil.example/api/v1/shipments?page=2",
      "http://api.example.com:8080/api/v1/shipments?page=2",
      "https://api.example.com:8443/api/v1/shipments?page=2",
      "http://sub.api.example.com/api/v1/shipments?page=2",
    ]) {
      expect(() => followableLink(link, base, same), link).toThrow(UnexpectedResponseError);
    }
    expect(() => followableLink("https://127.0.0.1:4000/x", new URL("http://127.0.0.1:4000"), same)).toThrow(/did not follow it/);
  });

  it("refuses a link that is not a URL", () => {
    expect(() => followableLink("http://[bad", new URL("https://api.example.com"), same)).toThrow(/is not a URL/);
  });
});
