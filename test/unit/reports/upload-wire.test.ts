// A report body through the real HTTP client to a local server: what arrives is exactly the body; a photo that
// changes while it is sent fails as a body error (the service cannot have applied a body cut short), while a
// connection the service resets is a network failure that may have arrived (read back before resending).
import { cpSync, readFileSync, truncateSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BodyReadError } from "../../../src/api/api-errors.js";
import type { ApiClient } from "../../../src/api/client-types.js";
import { reportBody } from "../../../src/reports/report-body.js";
import { checkFolder } from "../../../src/reports/folder-check.js";
import { fixture, tempDir } from "../../helpers/cli.js";
import { makeClient } from "../../helpers/api-client.js";
import { send, startServer, type TestServer } from "../../helpers/http-server.js";

const servers: TestServer[] = [];
const clients: ApiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup() {
  const server = await startServer((_req, res) => send(res, 201, ""));
  servers.push(server);
  const { api } = makeClient(server.url);
  clients.push(api);
  return { server, api };
}

describe("a report body on the wire", () => {
  it("arrives exactly as built, with its length, and progress reaches the last byte", async () => {
    const { server, api } = await setup();
    const check = await checkFolder(fixture("photos/oversized"), { fit: true });
    const progress: number[] = [];
    const body = await reportBody(check.photos);
    await api.uploadReport(7, 1, body, { onProgress: (n) => progress.push(n) });
    const [req] = server.received;
    expect(req!.headers["content-length"]).toBe(String(body.length));
    expect(req!.body.length).toBe(body.length);
    let at = 0;
    for (const photo of check.photos) {
      at = req!.body.indexOf(readFileSync(photo.path), at);
      expect(at).toBeGreaterThan(0);
    }
    const boundary = String(req!.headers["content-type"]).split("boundary=")[1]!;
    expect(req!.body.subarray(-(boundary.length + 6)).toString("latin1")).toBe(`--${boundary}--\r\n`);
    expect(progress.at(-1)).toBe(body.length);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it("a connection the service resets is a network failure that may have arrived, not a body error", async () => {
    // (A reset while the client is still writing, the case undici answers by destroying the body with the network's
    // error, is reproduced end to end by the sandbox's reset-before fault in test/e2e/report/upload.test.ts.)
    const server = createServer((req) => req.socket.resetAndDestroy());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { api } = makeClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    clients.push(api);
    try {
      const check = await checkFolder(fixture("photos/oversized"), { fit: true });
      const err = await api.uploadReport(7, 1, await reportBody(check.photos)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).not.toBeInstanceOf(BodyReadError);
      expect(err).toMatchObject({ mayHaveArrived: true });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("fails as a body read error, not a network failure, when a photo shrank after the check", async () => {
    const { api } = await setup();
    const dir = join(tempDir(), "nested");
    cpSync(fixture("photos/nested"), dir, { recursive: true });
    const check = await checkFolder(dir);
    const body = await reportBody(check.photos);
    // The last part: most of the body has gone out when the read comes up short.
    truncateSync(join(dir, "art", "right.png"), 10);
    const err = await api.uploadReport(7, 1, body).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BodyReadError);
    expect(err).toMatchObject({ mayHaveArrived: false, message: expect.stringContaining("changed while it was being sent") });
  });
});
