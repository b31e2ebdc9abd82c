// Shared set-up of the report end-to-end tests: shipments created over the real API of the test sandbox, moved to
// the status a set needs, and temporary copies of the photo fixtures laid out as a batch.
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { request } from "undici";
import { fixture, tempDir } from "../../helpers/cli.js";
import { ownCopy } from "../../helpers/own-photos.mjs";
import type { OrgTarget } from "../../helpers/sandbox.js";
import { GALLERY as ADDRESS } from "../../helpers/gallery.js";

/** Creates `count` shipments in the org (in requests of at most 10) and returns their ids. */
export async function createShipments(org: OrgTarget, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let left = count; left > 0; left -= 10) {
    const n = Math.min(10, left);
    const shipments = Array.from({ length: n }, (_, i) => ({
      title: `Report test ${ids.length + i + 1}`,
      value: 500,
      length: 20,
      height: 20,
      depth: 2,
      service: 1,
      fulfillment_address: ADDRESS,
      destination_address: ADDRESS,
    }));
    const res = await request(`${org.url}/api/v1/shipments`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.token}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ shipments }),
    });
    const body = (await res.body.json()) as { shipments: { id: number }[] };
    if (res.statusCode !== 201) throw new Error(`creating shipments answered ${res.statusCode}: ${JSON.stringify(body)}`);
    ids.push(...body.shipments.map((s) => s.id));
  }
  return ids;
}

/** A shipment ready for a set: Delivered (set 1) or Arrived (set 2), optionally since a given time. */
export async function shipmentReadyFor(org: OrgTarget, set: 1 | 2, at?: string): Promise<number> {
  const [id] = await createShipments(org, 1);
  await org.control.setStatus(id!, set === 1 ? "Delivered" : "Arrived", at);
  return id!;
}

/**
 * ROOT/<id>/ copies of a fixture folder, one per id, each with photos of its own (own-photos.mjs): a set with photos
 * another set sent is refused, as photos of one artwork at one moment cannot be another's.
 */
export function batchRoot(ids: number[], photos = "flat"): string {
  const root = tempDir("shipctl-batch-");
  for (const id of ids) ownCopy(fixture("photos", photos), join(root, String(id)));
  return root;
}

/** A writable copy of one fixture folder. */
export function copyOf(photos: string): string {
  const dir = join(tempDir("shipctl-report-"), photos);
  mkdirSync(dir, { recursive: true });
  cpSync(fixture("photos", photos), dir, { recursive: true });
  return dir;
}

/** "YYYY-MM-DD HH:MM:SS" (UTC) `ms` before now. */
export function ago(ms: number): string {
  return new Date(Date.now() - ms).toISOString().slice(0, 19).replace("T", " ");
}

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;
