import { describe, expect, it } from "vitest";
import { createTestIO } from "../../helpers/test-io.js";
import { ndjsonLine, printJson, printErrorJson, withError } from "../../../src/output/json.js";

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
    for (const value of [{ id: 1 }, { id: 2, nested: { x: [1] } }]) io.out(ndjsonLine(value));
    const lines = io.stdout().split("\n");
    expect(lines).toEqual(['{"id":1}', '{"id":2,"nested":{"x":[1]}}', ""]);
  });
});

describe("the error object and key style", () => {
  const error = { code: "partial" as const, exit_code: 8, message: "1 created, 1 failed (of 2 rows).", hint: null };

  it("adds the run's error as the document's last key, and nothing when the run succeeded", () => {
    const failed = withError({ status: "partly-paid", paid: [1] }, error);
    expect(Object.keys(failed)).toEqual(["status", "paid", "error"]);
    expect(failed).toMatchObject({ error });
    expect(withError({ status: "paid" }, undefined)).toEqual({ status: "paid" });
  });

  it("ends an NDJSON stream with the error on a line of its own", () => {
    const io = createTestIO();
    io.out(ndjsonLine({ id: 1 }));
    printErrorJson(io, error, { ndjson: true });
    const lines = io.stdout().trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines).toEqual([{ id: 1 }, { error }]);
  });

  it("prints a failure alone as the one document {error}", () => {
    const io = createTestIO();
    printErrorJson(io, error);
    expect(JSON.parse(io.stdout())).toEqual({ error });
    expect(io.stdout()).toContain('\n  "error": {\n');
  });
});
