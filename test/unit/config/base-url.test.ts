import { describe, expect, it } from "vitest";
import { normaliseBaseUrl } from "../../../src/config/base-url.js";
import { isLoopbackHost } from "../../../src/api/loopback.js";
import { ExitCode, UsageError } from "../../../src/errors.js";

function refusal(input: string, where = "--base-url"): UsageError {
  try {
    normaliseBaseUrl(input, where);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e as UsageError;
  }
  throw new Error(`${input} was accepted`);
}

describe("normaliseBaseUrl", () => {
  it("keeps scheme, host, port and path, without a trailing slash; lower-cases the host", () => {
    expect(normaliseBaseUrl("https://API.example.com/", "x")).toEqual({ url: "https://api.example.com", strippedApiPrefix: false });
    expect(normaliseBaseUrl("  https://example.com:8443/shipping//  ", "x").url).toBe("https://example.com:8443/shipping");
    expect(normaliseBaseUrl("https://example.com:443", "x").url).toBe("https://example.com");
  });

  it("strips a pasted /api/v1 (with or without a slash) and says so", () => {
    expect(normaliseBaseUrl("https://example.com/api/v1", "x")).toEqual({ url: "https://example.com", strippedApiPrefix: true });
    expect(normaliseBaseUrl("https://example.com/svc/API/V1/", "x")).toEqual({ url: "https://example.com/svc", strippedApiPrefix: true });
  });

  it("refuses plain http to any other host, with exit 2 and an https hint", () => {
    for (const url of ["http://example.com", "http://10.0.0.5:8080", "http://128.0.0.1", "http://localhost.example.com", "http://[::2]"]) {
      const e = refusal(url);
      expect(e.exitCode).toBe(ExitCode.Usage);
      expect(e.message).toContain("plain http");
      expect(e.message).toContain("--base-url");
      expect(e.hint).toContain("https://");
    }
  });

  it("allows plain http to loopback: localhost, 127.0.0.0/8 and [::1]", () => {
    expect(normaliseBaseUrl("http://localhost:8080", "x").url).toBe("http://localhost:8080");
    expect(normaliseBaseUrl("http://127.0.0.1:9000/", "x").url).toBe("http://127.0.0.1:9000");
    expect(normaliseBaseUrl("http://127.10.20.30", "x").url).toBe("http://127.10.20.30");
    expect(normaliseBaseUrl("http://[::1]:8080", "x").url).toBe("http://[::1]:8080");
    expect(normaliseBaseUrl("http://127.1:8080", "x").url).toBe("http://127.0.0.1:8080");
  });

  it("refuses what is not an http(s) URL, naming where it came from", () => {
    expect(refusal("example.com", "SHIPCTL_BASE_URL").message).toContain("SHIPCTL_BASE_URL");
    expect(refusal("example.com").hint).toContain("https://example.com");
    expect(refusal("ftp://example.com").message).toContain("https://");
    expect(refusal("").message).toContain("empty");
    expect(refusal("https://user:pw@example.com").message).toContain("user name or password");
    expect(refusal("https://example.com/?a=1").message).toContain("query");
  });

  it("knows loopback hosts as the URL parser spells them", () => {
    expect(isLoopbackHost("localhost")).toBe(true);
    expect(isLoopbackHost("LOCALHOST")).toBe(true);
    expect(isLoopbackHost("[::1]")).toBe(true);
    expect(isLoopbackHost("127.255.255.254")).toBe(true);
    expect(isLoopbackHost("127.0.0.1.nip.io")).toBe(false);
    expect(isLoopbackHost("0.0.0.0")).toBe(false);
  });
});
