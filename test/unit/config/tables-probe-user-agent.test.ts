// The sandbox tables probe carries the same User-Agent as every API request (review 2, L5).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { USER_AGENT } from "../../../src/api/user-agent.js";
import { probeSandboxTables } from "../../../src/config/tables-probe.js";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

it("sends User-Agent: shipctl/<version>", async () => {
  const agents: Array<string | undefined> = [];
  server = createServer((req, res) => {
    agents.push(req.headers["user-agent"]);
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"message":"Not Found"}');
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const result = await probeSandboxTables(`http://127.0.0.1:${port}`);
  expect(result.sandbox).toBe(false);
  expect(agents).toEqual([USER_AGENT]);
  expect(USER_AGENT).toMatch(/^shipctl\/\d+\.\d+\.\d+/);
});
