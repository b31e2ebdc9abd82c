// docs/mcp.md names the fields list_shipments takes: the same list as the tool's JSON Schema enum.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PRINTED_SHIPMENT_FIELDS } from "../../../src/contract/fields.js";

describe("docs/mcp.md", () => {
  it("lists every field list_shipments takes, in order (it left out fulfillment_address_id and destination_address_id)", () => {
    const page = readFileSync(new URL("../../../docs/mcp.md", import.meta.url), "utf8");
    const sentence = /`fields` takes the names[^]*?\): ([^]*?)\. The tool runs/.exec(page)?.[1];
    expect(sentence).toBeDefined();
    expect([...sentence!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1])).toEqual([...PRINTED_SHIPMENT_FIELDS]);
  });
});
