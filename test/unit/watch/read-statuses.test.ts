// A reading of every shipment (watch with no ids) asks for several list pages at once, as `due` does: each page is
// held until the test answers it, so what is in flight is counted, never timed.
import { expect, it } from "vitest";
import { setImmediate as turn } from "node:timers/promises";
import { fakeApi } from "../../helpers/deps.js";
import { readStatuses } from "../../../src/watch/read-statuses.js";
import { DEFAULT_READ_CONCURRENCY } from "../../../src/batch/concurrency.js";
import type { PageOf, StoredShipment } from "../../../src/contract/index.js";
import type { PageQuery } from "../../../src/api/client-types.js";

const SHIPMENTS: StoredShipment[] = Array.from({ length: 120 }, (_, i) => ({ id: 1000 + i, title: `Piece ${i}`, status: 1 }));

it("reads the pages of the list several at a time, and every shipment once", async () => {
  const held: Array<() => void> = [];
  const asked: number[] = [];
  const api = fakeApi({
    listShipments: (query: PageQuery) =>
      new Promise<PageOf<StoredShipment>>((resolve) => {
        const n = query.page!;
        asked.push(n);
        const data = SHIPMENTS.slice((n - 1) * query.limit!, n * query.limit!);
        const last = n * query.limit! >= SHIPMENTS.length;
        held.push(() => resolve({ data, links: { next: last ? null : `/api/v1/shipments?page=${n + 1}` } } as PageOf<StoredShipment>));
      }),
  });
  const reading = readStatuses(api, "all", {});
  await turn();
  // Before any page has answered, the first run of pages is in flight at once.
  expect(asked).toEqual(Array.from({ length: DEFAULT_READ_CONCURRENCY }, (_, i) => i + 1));
  for (const answer of held.splice(0)) answer();
  const readings = await reading;
  expect(readings.map((r) => r.id)).toEqual(SHIPMENTS.map((s) => s.id));
});
