// list_shipments' fields (issue 20 item 8): a compact default that its description names, the fields named kept in
// their order, and a wrong name refused with the CLI's own --fields message and list, from the same declaration.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { seedAddress, seedShipments } from "../../helpers/seed.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { PRINTED_SHIPMENT_FIELDS } from "../../../src/contract/fields.js";
import { startMcp, type McpSession } from "./mcp-client.js";

let sb: TestSandbox;
let org: OrgTarget;
let mcp: McpSession;
let ids: number[];
beforeAll(async () => {
  sb = await startTestSandbox();
  org = await sb.newOrg();
  ids = await seedShipments(org, 3, await seedAddress(org));
  mcp = await startMcp([], { sandbox: org });
});
afterAll(async () => {
  await mcp?.close();
  await sb.close();
});

type Shipments = Array<Record<string, unknown>>;

describe("list_shipments fields", () => {
  it("by default keeps the compact fields its description names, not both addresses of every record", async () => {
    const { listed } = { listed: (await mcp.client.listTools()).tools.find((t) => t.name === "list_shipments")! };
    expect(listed.description).toContain("by default id, title, status_name, price, created_at");
    const fields = (listed.inputSchema.properties as Record<string, { items?: { enum?: string[] } }>).fields!;
    expect(fields.items!.enum).toEqual(PRINTED_SHIPMENT_FIELDS);
    const { doc, isError } = await mcp.call("list_shipments", { all: true });
    expect(isError).toBe(false);
    const shipments = doc.shipments as Shipments;
    expect(shipments.map((s) => s.id)).toEqual(ids);
    for (const s of shipments) expect(Object.keys(s)).toEqual(["id", "title", "status_name", "price", "created_at"]);
  });

  it("keeps the fields named, in that order", async () => {
    const { doc } = await mcp.call("list_shipments", { fields: ["destination_address", "id"] });
    const first = (doc.shipments as Shipments)[0]!;
    expect(Object.keys(first)).toEqual(["destination_address", "id"]);
    expect(first.destination_address).toMatchObject({ country: expect.anything() });
  });

  it("a field it does not have: the CLI's own error and list of fields, nothing read", async () => {
    await org.control.clearRequests();
    const { doc, isError } = await mcp.call("list_shipments", { fields: ["id", "colour"] });
    expect(isError).toBe(true);
    const cli = await runCli(["list", "shipments", "--json", "--fields", "id,colour"], { sandbox: org });
    expect(cli.exitCode).toBe(2);
    const cliError = (JSON.parse(cli.stdout) as { error: Record<string, unknown> }).error;
    expect(doc.error).toEqual(cliError);
    expect(cliError).toMatchObject({ exit_code: 2, message: 'unknown field "colour" for list shipments', hint: `Valid fields: ${PRINTED_SHIPMENT_FIELDS.join(", ")}.` });
    expect(await org.control.requests({ method: "GET", path: "/api/v1/shipments" })).toEqual([]);
  });
});
