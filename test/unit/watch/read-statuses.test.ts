// A reading of every shipment (watch with no ids) asks for several list pages at once, as `due` does: each page is
// held until the test answers it, so what is in flight is counted, never timed.
import { expect, it } from "vitest";
import { setImmediate as turn } from "node:timers/promises";
import { httpStubs, page, reply, stubbedClient } from "../../helpers/http-stubs.js";
import { fakeClock } from "../../helpers/clock.js";
import { readStatuses } from "../../../src/watch/read-statuses.js";
import { DEFAULT_READ_CONCURRENCY } from "../../../src/batch/concurrency.js";
import type { StoredShipment } from "../../../src/contract/index.js";

const SHIPMENTS: StoredShipment[] = Array.from({ length: 120 }, (_, i) => ({ id: 1000 + i, title: `Piece ${i}`, status: 1 }));

it("reads the pages of the list several at a time, and every shipment once", async () => {
  const held: Array<() => void> = [];
  const asked: number[] = [];
  const stubs = httpStubs().on(
    "GET /api/v1/shipments",
    (request) =>
      new Promise((resolve) => {
        const n = Number(request.query.get("page"));
        const limit = Number(request.query.get("limit"));
        asked.push(n);
        const data = SHIPMENTS.slice((n - 1) * limit, n * limit);
        const last = n * limit >= SHIPMENTS.length;
        held.push(() => resolve(reply.json(200, page(data, { page: n, next: last ? undefined : `http://127.0.0.1:9/api/v1/shipments?page=${n + 1}` }))));
      }),
    { times: "any" },
  );
  const reading = readStatuses(stubbedClient(stubs, fakeClock()), "all", {});
  for (let i = 0; i < 20 && asked.length < DEFAULT_READ_CONCURRENCY; i++) await turn();
  // Before any page has answered, the first run of pages is in flight at once.
  expect(asked.sort((a, b) => a - b)).toEqual(Array.from({ length: DEFAULT_READ_CONCURRENCY }, (_, i) => i + 1));
  while (held.length) {
    for (const answer of held.splice(0)) answer();
    for (let i = 0; i < 20 && !held.length; i++) await turn();
  }
  const readings = await reading;
  expect(readings.map((r) => r.id)).toEqual(SHIPMENTS.map((s) => s.id));
});
