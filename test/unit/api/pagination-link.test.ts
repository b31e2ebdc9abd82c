// links.next: only its path and query are taken, requested on the base URL, and only for the endpoint being read.
// A service behind a TLS-terminating proxy names another scheme and port (http://host/...): read on the base URL.
import { describe, expect, it } from "vitest";
import { UnexpectedResponseError } from "../../../src/api/api-errors.js";
import { followableLink } from "../../../src/api/pagination-link.js";

const same = (s: string) => s;
const SHIPMENTS = "/api/v1/shipments";

describe("followableLink", () => {
  it("takes the path and query of a link on the base URL's origin, or of a relative one", () => {
    const base = new URL("https://api.example.com");
    expect(followableLink("https://api.example.com/api/v1/shipments?page=2", base, same, SHIPMENTS).href).toBe("https://api.example.com/api/v1/shipments?page=2");
    expect(followableLink("/api/v1/shipments?page=3&limit=50", base, same, SHIPMENTS).href).toBe("https://api.example.com/api/v1/shipments?page=3&limit=50");
  });

  it("reads a link naming another scheme, host or port on the base URL: a proxy's http://host/ without its port", () => {
    const base = new URL("https://shipping.test:8443");
    for (const link of [
      "http://shipping.test/api/v1/shipments?page=2&limit=50",
      "http://shipping.test:8080/api/v1/shipments?page=2&limit=50",
      "https://evil.example/api/v1/shipments?page=2&limit=50",
      "http://10.0.0.5:8000/api/v1/shipments?page=2&limit=50",
    ]) {
      expect(followableLink(link, base, same, SHIPMENTS).href, link).toBe("https://shipping.test:8443/api/v1/shipments?page=2&limit=50");
    }
  });

  it("keeps the base URL's path prefix, whether the service's link has it or not (a proxy that strips it)", () => {
    const base = new URL("https://corp.example/shipping");
    expect(followableLink("http://corp.example/shipping/api/v1/shipments?page=2", base, same, SHIPMENTS).href).toBe("https://corp.example/shipping/api/v1/shipments?page=2");
    expect(followableLink("http://backend:8000/api/v1/shipments?page=2", base, same, SHIPMENTS).href).toBe("https://corp.example/shipping/api/v1/shipments?page=2");
  });

  it("refuses a link to any other path: it is not a page of the list being read", () => {
    const base = new URL("https://api.example.com");
    for (const link of ["https://api.example.com/api/v1/addresses?page=2", "/api/v1/shipments/12", "/login?page=2", "https://api.example.com/x"]) {
      expect(() => followableLink(link, base, same, SHIPMENTS), link).toThrow(UnexpectedResponseError);
    }
    expect(() => followableLink("/x", base, same, SHIPMENTS)).toThrow(/is not a page of \/api\/v1\/shipments, the list being read: shipctl did not follow it/);
  });

  it("without the endpoint (a raw read), takes the link's path and query as they are, on the base URL", () => {
    expect(followableLink("http://shipping.test/api/v1/anything?page=2", new URL("https://shipping.test:8443"), same).href).toBe("https://shipping.test:8443/api/v1/anything?page=2");
  });

  it("refuses a link that is not a URL", () => {
    expect(() => followableLink("http://[bad", new URL("https://api.example.com"), same, SHIPMENTS)).toThrow(/is not a URL/);
  });
});
