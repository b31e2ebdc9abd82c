// --state FILE: loaded at start, written atomically before each acknowledged change is answered.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox, StateFileError } from "../../../src/sandbox/server.js";
import { tempDir } from "../../helpers/cli.js";
import { controlClient } from "../../helpers/sandbox.js";
import { address, createShipments, send } from "./support.js";

describe("--state file", () => {
  it("survives a restart: records, switches, other organizations and the id sequences", async () => {
    const file = join(tempDir("sandbox-state-"), "state.json");
    const first = await startSandbox({ stateFile: file });
    const org2 = await send(first, "POST", "/_sandbox/organizations");
    const second = { url: first.url, token: org2.body.token as string };
    const addressId = (await send(first, "POST", "/api/v1/addresses", { json: address() })).body.id;
    const ids = await createShipments(first, 2);
    await send(first, "GET", `/api/v1/checkout?shipments[]=${ids[0]}`);
    await send(first, "POST", "/api/v1/checkout", { json: { shipments: [ids[0]] } });
    await controlClient(first.url, first.token).setPaymentMethod("failing", 2);
    const [other] = await createShipments(second, 1);
    await first.close();

    const again = await startSandbox({ stateFile: file });
    try {
      const target = { url: again.url, token: again.token };
      expect((await send(target, "GET", `/api/v1/addresses/${addressId}`)).body.data.name).toBe(address().name);
      const list = (await send(target, "GET", "/api/v1/shipments")).body.data;
      expect(list.map((s: { id: number; status: number }) => [s.id, s.status])).toEqual([
        [ids[0], 2],
        [ids[1], 1],
      ]);
      expect(await controlClient(again.url, again.token).charges()).toHaveLength(1);
      expect((await controlClient(again.url, again.token).organization()).payment_method).toEqual({ state: "failing", remaining: 2 });
      expect((await send({ url: again.url, token: second.token }, "GET", `/api/v1/shipments/${other}`)).status).toBe(200);
      const next = await createShipments(target, 1);
      expect(next[0]).toBe(other! + 1);
    } finally {
      await again.close();
    }
  });

  it("has each acknowledged change on disk when the answer arrives, and leaves no temp files", async () => {
    const dir = tempDir("sandbox-state-");
    const file = join(dir, "state.json");
    const sb = await startSandbox({ stateFile: file });
    try {
      expect(JSON.parse(readFileSync(file, "utf8")).version).toBe(1);
      for (let i = 0; i < 5; i++) {
        const [id] = await createShipments(sb, 1);
        const onDisk = JSON.parse(readFileSync(file, "utf8"));
        expect(onDisk.orgs[0].shipments.map((s: { id: number }) => s.id)).toContain(id);
      }
      // Concurrent changes are coalesced, and still all on disk once answered.
      const many = await Promise.all(Array.from({ length: 20 }, () => createShipments(sb, 1)));
      const onDisk = JSON.parse(readFileSync(file, "utf8")).orgs[0].shipments.map((s: { id: number }) => s.id);
      expect(onDisk).toEqual(expect.arrayContaining(many.flat()));
    } finally {
      await sb.close();
    }
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });

  it("gives organization 1 the startup token", async () => {
    const file = join(tempDir("sandbox-state-"), "state.json");
    const first = await startSandbox({ stateFile: file });
    await createShipments(first, 1);
    await first.close();
    const again = await startSandbox({ stateFile: file, token: "another-token" });
    try {
      expect((await send({ url: again.url, token: "sandbox-token" }, "GET", "/api/v1/shipments")).status).toBe(401);
      expect((await send({ url: again.url, token: "another-token" }, "GET", "/api/v1/shipments")).body.data).toHaveLength(1);
    } finally {
      await again.close();
    }
  });

  it("keeps the created_at lag and the list order across a restart; a file from before them loads with the defaults", async () => {
    const file = join(tempDir("sandbox-state-"), "state.json");
    const first = await startSandbox({ stateFile: file });
    await controlClient(first.url, first.token).lagCreatedAt(180_000);
    await controlClient(first.url, first.token).setListOrder("shuffled");
    await first.close();
    const again = await startSandbox({ stateFile: file });
    await expect(controlClient(again.url, again.token).clock()).resolves.toMatchObject({ created_at_lag_ms: 180_000 });
    await expect(controlClient(again.url, again.token).listOrder()).resolves.toEqual({ order: "shuffled" });
    await again.close();

    const older = JSON.parse(readFileSync(file, "utf8"));
    delete older.orgs[0].createdAtLagMs;
    delete older.orgs[0].listOrder;
    writeFileSync(file, JSON.stringify(older));
    const third = await startSandbox({ stateFile: file });
    try {
      await expect(controlClient(third.url, third.token).clock()).resolves.toMatchObject({ created_at_lag_ms: 0 });
      await expect(controlClient(third.url, third.token).listOrder()).resolves.toEqual({ order: "asc" });
      await createShipments(third, 2);
      expect((await send(third, "GET", "/api/v1/shipments")).body.data).toHaveLength(2);
    } finally {
      await third.close();
    }
  });

  it("refuses to start on a file that is not a sandbox state, naming it", async () => {
    const file = join(tempDir("sandbox-state-"), "broken.json");
    writeFileSync(file, "{ not json");
    await expect(startSandbox({ stateFile: file })).rejects.toThrow(StateFileError);
    await expect(startSandbox({ stateFile: file })).rejects.toThrow(file);
    writeFileSync(file, JSON.stringify({ hello: "world" }));
    await expect(startSandbox({ stateFile: file })).rejects.toThrow(/not a shipctl sandbox state file/);
  });

  it("refuses to start when the file cannot be written", async () => {
    const file = join(tempDir("sandbox-state-"), "missing-dir", "state.json");
    await expect(startSandbox({ stateFile: file })).rejects.toThrow(StateFileError);
  });
});
