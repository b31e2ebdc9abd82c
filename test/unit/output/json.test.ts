import { describe, expect, it } from "vitest";
import { createTestIO } from "../../helpers/test-io.js";
import { printJson, printNdjson } from "../../../src/output/json.js";

describe("JSON output", () => {
  it("prints exactly one parseable document and a newline on stdout, nothing on stderr", () => {
    const io = createTestIO();
    printJson(io, { a: 1, list: [1, 2], text: "ünïcode" });
    expect(io.stdout().endsWith("}\n")).toBe(true);
    expect(JSON.parse(io.stdout())).toEqual({ a: 1, list: [1, 2], text: "ünïcode" });
    expect(io.stderr()).toBe("");
  });

  it("prints one compact document per line for NDJSON", () => {
    const io = createTestIO();
    printNdjson(io, [{ id: 1 }, { id: 2, nested: { x: [1] } }]);
    const lines = io.stdout().split("\n");
    expect(lines).toEqual(['{"id":1}', '{"id":2,"nested":{"x":[1]}}', ""]);
  });
});
