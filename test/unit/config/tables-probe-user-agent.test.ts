// The sandbox tables probe carries the same User-Agent as every API request (review 2, L5), and no Authorization
// header when it has no token to send.
import { afterEach, expect, it } from "vitest";
import { USER_AGENT } from "../../../src/api/user-agent.js";
import { probeSandboxTables } from "../../../src/config/tables-probe.js";
import { json, startServer, type TestServer } from "../../helpers/http-server.js";

let server: TestServer | undefined;
afterEach(() => server?.close());

it("sends User-Agent: shipctl/<version>", async () => {
  server = await startServer((_req, res) => json(res, 404, { message: "Not Found" }));
  const result = await probeSandboxTables(server.url);
  expect(result.sandbox).toBe(false);
  expect(server.received.map((r) => r.headers["user-agent"])).toEqual([USER_AGENT]);
  expect(server.received[0]!.headers.authorization).toBeUndefined();
  expect(USER_AGENT).toMatch(/^shipctl\/\d+\.\d+\.\d+/);
});
