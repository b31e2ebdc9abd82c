import { describe, expect, it } from "vitest";
import { maskToken } from "../../../src/output/mask-token.js";

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
