// ApiClient.rawRequest (`shipctl api`) against a real local server: the same token, headers, retry rules and error
// mapping as every endpoint, the answer kept with an error status, and nothing sent off the base URL's origin.
import { afterEach, describe, expect, it } from "vitest";
import { NetworkError, NotFoundError, ServerError } from "../../../src/api/api-errors.js";
import type { ApiClient, RawRequest } from "../../../src/api/client-types.js";
import { ExitCode, UsageError, exitCodeOfError } from "../../../src/errors.js";
import { TOKEN, makeClient } from "../../helpers/api-client.js";
import { freePort, json, send, startServer, type Handler, type TestServer } from "../../helpers/http-server.js";

let server: TestServer | undefined;
let api: ApiClient | undefined;

afterEach(async () => {
  await api?.close();
  await server?.close();
  api = server = undefined;
});

async function setup(handler: Handler, options: Parameters<typeof makeClient>[1] = {}) {
  server = await startServer(handler);
  const made = makeClient(server.url, options);
  api = made.api;
  return { server, ...made };
}

const request = (url: string, extra: Partial<RawRequest> = {}): RawRequest => ({ method: "GET", url: new URL(url), headers: {}, idempotent: true, ...extra });

describe("rawRequest", () => {
  it("sends the method, path, query, JSON body and extra headers, with the profile's token whatever the headers say", async () => {
    const { server, api } = await setup((_req, res) => json(res, 200, { ok: true }));
    const answer = await api.rawRequest(
      request(`${server.url}/api/v1/shipments/7?x[]=1`, {
        method: "PATCH",
        headers: { "x-trace": "abc", accept: "text/plain", authorization: "Bearer stolen" },
        json: { title: "Blue" },
        idempotent: false,
      }),
    );
    expect(answer.failure).toBeUndefined();
    expect(answer.response.status).toBe(200);
    expect(JSON.parse(answer.response.text)).toEqual({ ok: true });
    const [req] = server.received;
    expect(req).toMatchObject({ method: "PATCH", url: "/api/v1/shipments/7?x[]=1" });
    expect(req!.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, "x-trace": "abc", accept: "text/plain", "content-type": "application/json" });
    expect(JSON.parse(req!.body.toString())).toEqual({ title: "Blue" });
  });

  it("sends a header named as an object's own property (__proto__, constructor) as a header", async () => {
    const { server, api } = await setup((_req, res) => json(res, 200, {}));
    const headers = Object.fromEntries([["__proto__", "a"], ["constructor", "b"]]);
    await api.rawRequest(request(`${server.url}/api/v1/shipments`, { headers }));
    expect(server.received[0]!.rawHeaders.join(" ")).toContain("__proto__ a constructor b");
  });

  it("fails on an answer larger than it reads, once, rather than handing back the part it read as the whole answer", async () => {
    const { server, api } = await setup((_req, res) => send(res, 200, "x".repeat(17 * 1024 * 1024), "text/plain"));
    const failed = api.rawRequest(request(`${server.url}/api/v1/export`));
    await expect(failed).rejects.toBeInstanceOf(NetworkError);
    await expect(failed).rejects.toThrow("The answer to GET /api/v1/export was not read: the answer is larger than 16 MiB, more than shipctl reads");
    // Read again, it would be as large: not retried.
    expect(server.received).toHaveLength(1);
  });

  it("refuses a URL on another origin without sending anything", async () => {
    const { server, api } = await setup((_req, res) => json(res, 200, {}));
    const other = `http://127.0.0.1:${await freePort()}/api/v1/shipments`;
    await expect(api.rawRequest(request(other))).rejects.toBeInstanceOf(UsageError);
    expect(server.received).toHaveLength(0);
  });

  it("an error status comes back with its answer and the error every command gives (404: exit 6)", async () => {
    const { api } = await setup((_req, res) => json(res, 404, { message: "No shipment with id 9." }));
    const answer = await api.rawRequest(request(`${server!.url}/api/v1/shipments/9`));
    expect(answer.response.status).toBe(404);
    expect(JSON.parse(answer.response.text)).toEqual({ message: "No shipment with id 9." });
    expect(answer.failure).toBeInstanceOf(NotFoundError);
    expect(exitCodeOfError(answer.failure)).toBe(ExitCode.Rejected);
  });

  it("a GET is retried through a 503, as reads are", async () => {
    const { server, api } = await setup((_req, res, _body, index) => (index === 0 ? send(res, 503, "busy") : json(res, 200, { data: [] })));
    const answer = await api.rawRequest(request(`${server.url}/api/v1/shipments`));
    expect(answer.response.status).toBe(200);
    expect(server.received).toHaveLength(2);
  });

  it("a write answered 500 is not sent again: one request, exit 7, may have arrived, the 500's body kept", async () => {
    const { server, api } = await setup((_req, res) => json(res, 500, { message: "boom" }));
    const answer = await api.rawRequest(request(`${server.url}/api/v1/shipments/3`, { method: "PATCH", json: {}, idempotent: false }));
    expect(server.received).toHaveLength(1);
    expect(answer.failure).toBeInstanceOf(ServerError);
    expect(answer.failure!.mayHaveArrived).toBe(true);
    expect(exitCodeOfError(answer.failure)).toBe(ExitCode.Unavailable);
    expect(answer.response.text).toContain("boom");
  });

  it("a network failure throws (there is no answer to show)", async () => {
    const port = await freePort();
    const made = makeClient(`http://127.0.0.1:${port}`, { retries: 0 });
    api = made.api;
    await expect(made.api.rawRequest(request(`http://127.0.0.1:${port}/api/v1/shipments`))).rejects.toBeInstanceOf(NetworkError);
  });

  it("--debug lines never hold the token, even when the path does", async () => {
    const { server, api, debug } = await setup((_req, res) => json(res, 200, {}));
    await api.rawRequest(request(`${server.url}/api/v1/shipments?t=${TOKEN}`));
    expect(debug.join("\n")).toContain("/api/v1/shipments?t=[REDACTED]");
    expect(debug.join("\n")).not.toContain(TOKEN);
  });
});
