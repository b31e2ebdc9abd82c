import { describe, expect, it } from "vitest";
import { REDACTED, cleanText, createRedactor } from "../../../src/api/redact.js";

describe("createRedactor", () => {
  it("replaces the token and its URL-encoded form everywhere", () => {
    const redact = createRedactor("a+b/c=d");
    expect(redact("x a+b/c=d y a%2Bb%2Fc%3Dd z a+b/c=d")).toBe(`x ${REDACTED} y ${REDACTED} z ${REDACTED}`);
  });

  it("leaves text without the token alone, and never matches an empty token", () => {
    expect(createRedactor("secret-token")("nothing here")).toBe("nothing here");
    expect(createRedactor("")("abc")).toBe("abc");
  });
});

describe("cleanText", () => {
  it("makes one safe line", () => {
    expect(cleanText("a\n\tb\u001b[2Jc  d")).toBe("a b [2Jc d");
    expect(cleanText("x".repeat(50), 10)).toBe(`${"x".repeat(9)}…`);
  });
});
