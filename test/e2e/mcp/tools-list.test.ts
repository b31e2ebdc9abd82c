// `shipctl mcp`: the tools it lists, with input schemas that carry the contract's bounds; --read-only lists no
// writing tool. The built binary, spoken to with the SDK's client over stdio.
import { afterAll, describe, expect, it } from "vitest";
import { startMcp, type McpSession } from "./mcp-client.js";
import { runCli } from "../../helpers/cli.js";

const READING = ["verify_address", "get_address", "list_shipments", "get_shipment", "show_tables", "quote_checkout", "due"];
const WRITING = ["add_address", "create_shipments", "update_shipment", "checkout", "upload_report"];

type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; required?: string[]; [k: string]: unknown };

const sessions: McpSession[] = [];
afterAll(async () => {
  for (const s of sessions) await s.close();
});

async function tools(args: string[] = []) {
  const session = await startMcp(args, { env: { SHIPCTL_BASE_URL: "http://127.0.0.1:9", SHIPCTL_TOKEN: "unused" } });
  sessions.push(session);
  const listed = (await session.client.listTools()).tools;
  expect(session.protocolErrors).toEqual([]);
  return { session, listed, schema: (name: string) => listed.find((t) => t.name === name)!.inputSchema as Schema };
}

describe("shipctl mcp: tools/list", () => {
  it("lists every tool by name, reading tools marked read-only, and says on stderr what it serves", async () => {
    const { session, listed } = await tools();
    expect(listed.map((t) => t.name)).toEqual([...READING, ...WRITING]);
    for (const t of listed) expect(t.annotations?.readOnlyHint, t.name).toBe(READING.includes(t.name));
    // Clients may ask the user before these: one replaces a shipment's details, the other charges the card.
    expect(listed.filter((t) => t.annotations?.destructiveHint).map((t) => t.name)).toEqual(["update_shipment", "checkout"]);
    expect(session.stderr()).toMatch(/shipctl mcp \S+: 12 tools on stdio/);
  });

  it("tells the assistant that the documents' zone-less times are UTC, so it does not show them as the user's local time", async () => {
    const { session } = await tools();
    expect(session.client.getInstructions()).toContain("YYYY-MM-DD HH:MM:SS (created_at, delivered_at, arrived_at, closes_at...) are UTC");
  });

  it("sends the contract's bounds in the input schemas: lengths, ranges, patterns, enums, list sizes", async () => {
    const { schema } = await tools();
    const item = schema("create_shipments").properties!.items!.items!;
    expect(item.properties!.title).toMatchObject({ type: "string", minLength: 2, maxLength: 50 });
    expect(item.properties!.value).toMatchObject({ type: "integer", minimum: 50, maximum: 10000 });
    expect(item.properties!.length).toMatchObject({ minimum: 17, maximum: 44 });
    expect(item.properties!.height).toMatchObject({ minimum: 13, maximum: 34 });
    expect(item.properties!.depth).toMatchObject({ minimum: 1, maximum: 4 });
    expect(item.properties!.reference).toMatchObject({ type: "string", maxLength: 100 });
    expect(item.properties!.service!.anyOf!.map((s) => s.type)).toEqual(["integer", "string"]);
    expect(item.additionalProperties).toBe(false);
    const address = schema("add_address").properties!.address!;
    expect(address.required).toEqual(["name", "email", "phone", "line_1", "city", "region", "post_code", "country"]);
    expect(address.properties!.name).toMatchObject({ minLength: 2, maxLength: 50 });
    expect(address.properties!.email).toMatchObject({ minLength: 6, maxLength: 100, pattern: expect.any(String) });
    expect(address.properties!.phone).toMatchObject({ minLength: 7, maxLength: 30, pattern: "^\\+[1-9]\\d{1,14}$" });
    expect(address.properties!.post_code).toMatchObject({ minLength: 2, maxLength: 16 });
    expect(address.properties!.country!.anyOf![0]).toMatchObject({ type: "integer", minimum: 1 });
    const list = schema("list_shipments").properties!;
    expect(list.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 50 });
    expect(list.status!.items!.enum).toEqual(expect.arrayContaining(["Draft", "Confirmed", "Delivered", "Completed"]));
    expect(schema("checkout").required).toEqual(["ids", "confirm_total_cents"]);
    expect(schema("checkout").properties!.ids).toMatchObject({ type: "array", minItems: 1, uniqueItems: true, items: { type: "integer", minimum: 1 } });
    expect(schema("upload_report").properties!.set).toMatchObject({ enum: [1, 2] });
  });

  it("--read-only lists the reading tools only (quote_checkout among them: it charges nothing)", async () => {
    const { listed, session } = await tools(["--read-only"]);
    expect(listed.map((t) => t.name)).toEqual(READING);
    const refused = await session.client.callTool({ name: "checkout", arguments: { ids: [1], confirm_total_cents: 100 } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("no tool named");
  });
});

describe("shipctl mcp: a blank --profile, a blank or bad --base-url", () => {
  it.each([
    [["--profile", ""], "--profile is empty"],
    [["--base-url", " "], "--base-url is empty"],
    [["--base-url", "api.example.com"], '--base-url "api.example.com" is not a URL'],
  ])("%j is refused at start (exit 2), not in every tool call the server would answer", async (globals, message) => {
    const env = { SHIPCTL_BASE_URL: "http://127.0.0.1:9", SHIPCTL_TOKEN: "unused" };
    const r = await runCli([...globals, "mcp"], { env, stdin: "" });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toContain("tools on stdio");
  });

  it("a --profile not saved is refused at start as by every command (exit 4), not in every tool call", async () => {
    const r = await runCli(["--profile", "nope", "mcp"], { stdin: "" });
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('not authenticated: there is no profile "nope"');
    expect(r.stderr).toContain("`shipctl login --profile nope`");
    expect(r.stderr).not.toContain("tools on stdio");
  });
});
