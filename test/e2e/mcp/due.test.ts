// The due tool over MCP: an open condition-report window is the answer, not a tool error (the command exits 10 for
// it), and with nothing due the document lists nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { seedShipments } from "../../helpers/seed.js";
import { startTestSandbox, type OrgTarget, type TestSandbox } from "../../helpers/sandbox.js";
import { startMcp, type McpSession } from "./mcp-client.js";

let sb: TestSandbox;
const sessions: McpSession[] = [];
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  for (const s of sessions) await s.close();
  await sb.close();
});

async function serve(org: OrgTarget): Promise<McpSession> {
  const session = await startMcp(["--read-only"], { sandbox: org });
  sessions.push(session);
  return session;
}

describe("shipctl mcp: due", () => {
  it("a shipment just Delivered: the due document, not a tool error, with its set 1 window open", async () => {
    const org = await sb.newOrg();
    const [id, other] = await seedShipments(org, 2);
    // Moved with the sandbox's control surface as a person would, through the CLI.
    const moved = await runCli(["sandbox", "status", String(id), "Delivered"], { sandbox: org });
    expect(moved.exitCode, moved.stderr).toBe(0);
    await org.control.setStatus(other!, "Filed");
    const mcp = await serve(org);
    const { doc, isError } = await mcp.call("due");
    expect(isError, JSON.stringify(doc)).toBe(false);
    expect(doc.due).toEqual([expect.objectContaining({ id, status_name: "Delivered", kind: "report_window_open", set: 1 })]);
    expect((doc.due as Array<{ seconds_left: number }>)[0]!.seconds_left).toBeGreaterThan(29 * 86_400);
    // The command's own document, exit 10 included.
    expect(doc.error).toMatchObject({ code: "due", exit_code: 10 });
    const cli = await runCli(["due", "--json"], { sandbox: org });
    expect(cli.exitCode).toBe(10);
    expect(Object.keys(doc)).toEqual(Object.keys(JSON.parse(cli.stdout) as object));
  });

  it("nothing due: the document lists nothing and has no error", async () => {
    const org = await sb.newOrg();
    const [id] = await seedShipments(org, 1);
    await org.control.setStatus(id!, "Filed");
    const mcp = await serve(org);
    const { doc, isError } = await mcp.call("due");
    expect(isError, JSON.stringify(doc)).toBe(false);
    expect(doc).toMatchObject({ due: [], shipments_read: 1 });
    expect(doc).not.toHaveProperty("error");
  });
});
