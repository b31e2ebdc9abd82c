// --fields and --query as they reshape JSON (output/json-shape.ts) and the stdout that applies them
// (output/shaped-stdout.ts): one document held to the end, NDJSON a line at a time, failures never reshaped.
import { describe, expect, it } from "vitest";
import { pickFields, queryProblem, rawText, shapeDocument, shapeItem } from "../../../src/output/json-shape.js";
import { shapedStdout } from "../../../src/output/shaped-stdout.js";
import { createTestIO } from "../../helpers/test-io.js";

const LIST = {
  shipments: [
    { id: 1, title: "Blue", status: 1, status_name: "Draft" },
    { id: 2, title: "Red", status: 3, status_name: "Paid" },
  ],
  page: 1,
  next_page: null,
};
const ERROR = { error: { code: "not_found", exit_code: 6, message: "no", hint: null } };

describe("--fields", () => {
  it("keeps exactly the fields named, in their order, null for one the record lacks", () => {
    expect(pickFields({ id: 1, title: "Blue", status: 1 }, ["status", "id", "price"])).toEqual({ status: 1, id: 1, price: null });
    expect(Object.keys(pickFields({ id: 1, title: "Blue", status: 1 }, ["status", "id"]) as object)).toEqual(["status", "id"]);
  });

  it("applies to the records where the command keeps them, leaving the rest of the document", () => {
    expect(shapeDocument(LIST, { fields: ["id", "title"], records: ["shipments"] })).toEqual({
      shipments: [
        { id: 1, title: "Blue" },
        { id: 2, title: "Red" },
      ],
      page: 1,
      next_page: null,
    });
    // No records key: the document is the record (shipment get).
    expect(shapeDocument({ id: 7, title: "Blue", price: 4500 }, { fields: ["price"] })).toEqual({ price: 4500 });
  });

  it("leaves a failure's document alone, and keeps the error a partial document carries", () => {
    expect(shapeDocument(ERROR, { fields: ["id"], records: [] })).toEqual(ERROR);
    expect(shapeDocument(ERROR, { query: "shipments[].id" })).toEqual(ERROR);
    expect(shapeDocument({ ...LIST, error: ERROR.error }, { fields: ["id"], records: ["shipments"] })).toEqual({
      shipments: [{ id: 1 }, { id: 2 }],
      page: 1,
      next_page: null,
      error: ERROR.error,
    });
  });
});

describe("--query", () => {
  it("applies JMESPath to the document, after --fields", () => {
    expect(shapeDocument(LIST, { query: "shipments[].id" })).toEqual([1, 2]);
    expect(shapeDocument(LIST, { query: "shipments[?status_name=='Paid'].title | [0]" })).toBe("Red");
    expect(shapeDocument(LIST, { fields: ["id"], records: ["shipments"], query: "shipments[0]" })).toEqual({ id: 1 });
    expect(shapeDocument(LIST, { query: "nothing" })).toBeNull();
  });

  it("applies to each NDJSON item: a null result is no line, so a query filters; an error line stays", () => {
    const arrived = "[@][?to=='Arrived'] | [0].id";
    expect(shapeItem({ id: 5, to: "Arrived" }, { query: arrived })).toBe(5);
    expect(shapeItem({ id: 6, to: "Filed" }, { query: arrived })).toBeUndefined();
    expect(shapeItem({ id: 5, to: "Arrived", at: "x" }, { fields: ["to", "id"] })).toEqual({ to: "Arrived", id: 5 });
    expect(shapeItem(ERROR, { fields: ["id"], query: "id" })).toEqual(ERROR);
  });

  it("names what is wrong with an expression, and nothing for a good one", () => {
    expect(queryProblem("shipments[].id")).toBeUndefined();
    expect(queryProblem("shipments[")).toMatch(/Expected/);
    expect(queryProblem("  ")).toBe("the expression is empty");
  });
});

describe("the shaped stdout", () => {
  it("holds one document, written in pieces, until the end, then prints it shaped", () => {
    const io = createTestIO();
    const out = shapedStdout(io, { fields: ["id"], records: ["shipments"] }, "document");
    const text = `${JSON.stringify(LIST, null, 2)}\n`;
    out.io.out(text.slice(0, 10));
    out.io.out(text.slice(10));
    expect(io.stdout()).toBe("");
    expect(out.end()).toBeUndefined();
    expect(JSON.parse(io.stdout())).toEqual({ shipments: [{ id: 1 }, { id: 2 }], page: 1, next_page: null });
  });

  it("shapes NDJSON a line at a time, as lines arrive, and passes the error line", () => {
    const io = createTestIO();
    const out = shapedStdout(io, { fields: ["id"], query: "[@][?id > `1`] | [0]" }, "lines");
    out.io.out(`${JSON.stringify({ id: 1, t: "a" })}\n${JSON.stringify({ id: 2, t: "b" })}\n{"id":`);
    expect(io.stdout()).toBe('{"id":2}\n');
    out.io.out(`3,"t":"c"}\n${JSON.stringify(ERROR)}\n`);
    expect(out.end()).toBeUndefined();
    expect(io.stdout()).toBe(`{"id":2}\n{"id":3}\n${JSON.stringify(ERROR)}\n`);
  });

  it("after a run that succeeded, puts the query's failure in the output: the document's error, the stream's last line", () => {
    const doc = createTestIO();
    const one = shapedStdout(doc, { query: "length(page)" }, "document");
    one.io.out(`${JSON.stringify(LIST)}\n`);
    expect(one.end(true)).toMatch(/length\(\) expected/);
    expect(JSON.parse(doc.stdout())).toEqual({ ...LIST, error: expect.objectContaining({ code: "query_failed", exit_code: 1 }) as unknown });
    const lines = createTestIO();
    const many = shapedStdout(lines, { query: "length(id)" }, "lines");
    many.io.out(`${JSON.stringify({ id: 1 })}\n`);
    expect(many.end(true)).toMatch(/length\(\) expected/);
    const printed = lines.stdout().trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(printed).toEqual([{ id: 1 }, { error: expect.objectContaining({ code: "query_failed" }) as unknown }]);
  });

  it("prints what it cannot shape as it was, and says why", () => {
    const io = createTestIO();
    const out = shapedStdout(io, { query: "length(page)" }, "document");
    out.io.out(`${JSON.stringify(LIST)}\n`);
    expect(out.end()).toMatch(/the query failed on it: .*length\(\) expected/);
    expect(JSON.parse(io.stdout())).toEqual(LIST);

    const text = createTestIO();
    const notJson = shapedStdout(text, { query: "id" }, "document");
    notJson.io.out("The spreadsheet round trip\n");
    expect(notJson.end()).toBe("the output was not one JSON document");
    expect(text.stdout()).toBe("The spreadsheet round trip\n");
  });

  it("prints nothing when the command printed nothing (main then prints the failure's document)", () => {
    const io = createTestIO();
    expect(shapedStdout(io, { query: "id" }, "document").end()).toBeUndefined();
    expect(io.stdout()).toBe("");
  });
});

describe("rawText (-r/--raw-output)", () => {
  it("a string without quotes; an array of strings, numbers or booleans one a line; anything else: undefined (JSON)", () => {
    expect(rawText("Blue Study")).toBe("Blue Study\n");
    expect(rawText(["a b", 2, true])).toBe("a b\n2\ntrue\n");
    expect(rawText([])).toBe("");
    expect(rawText(42)).toBeUndefined();
    expect(rawText(null)).toBeUndefined();
    expect(rawText([{ id: 1 }])).toBeUndefined();
    expect(rawText(["a", null])).toBeUndefined();
  });
});
