import { describe, expect, it } from "vitest";
import { maskToken, redact } from "../../../src/output/redact.js";

describe("maskToken", () => {
  it("shows the first and last four characters of a long token, never the middle", () => {
    expect(maskToken("sandbox-token")).toBe("sand…oken");
    const token = "tok_live_0123456789abcdef";
    const masked = maskToken(token);
    expect(masked).toBe("tok_…cdef");
    expect(masked).not.toContain("0123456789");
  });

  it("shows nothing of a short token, and nothing for none", () => {
    expect(maskToken("abc")).toBe("****");
    expect(maskToken("elevenchars")).toBe("****");
    expect(maskToken("")).toBe("");
    expect(maskToken(undefined)).toBe("");
  });
});

describe("redact", () => {
  it("replaces every occurrence of the secret", () => {
    const line = "GET /x Authorization: Bearer s3cret-token; again s3cret-token";
    expect(redact(line, "s3cret-token")).toBe("GET /x Authorization: Bearer ****; again ****");
  });

  it("also replaces the URL-encoded form of the secret", () => {
    expect(redact("?token=a%2Fb%2Bc&x=1", "a/b+c")).toBe("?token=****&x=1");
  });

  it("leaves text alone when there is no secret", () => {
    expect(redact("nothing to hide", "")).toBe("nothing to hide");
    expect(redact("nothing to hide", undefined)).toBe("nothing to hide");
  });
});
