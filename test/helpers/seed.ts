// Records put straight into a sandbox organization over HTTP, so the tests of reading and updating commands do not
// depend on the commands that create them.
import { request } from "undici";
import type { CliTarget } from "./cli.js";
import { GALLERY } from "./gallery.js";

/** An address the sandbox verifies as valid. */
export { GALLERY };

/** The same address as command-line flags. */
export const GALLERY_ARGS = [
  "--name", GALLERY.name,
  "--email", GALLERY.email,
  "--phone", GALLERY.phone,
  "--line-1", GALLERY.line_1,
  "--city", GALLERY.city,
  "--region", GALLERY.region,
  "--post-code", GALLERY.post_code,
  "--country", "US",
];

async function post<T>(target: CliTarget, path: string, body: unknown): Promise<T> {
  const res = await request(`${target.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${target.token}`, accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode !== 201) throw new Error(`seeding ${path} answered ${res.statusCode}: ${text}`);
  return JSON.parse(text) as T;
}

export async function seedAddress(target: CliTarget, fields: Partial<typeof GALLERY> = {}): Promise<number> {
  return (await post<{ id: number }>(target, "/api/v1/addresses", { ...GALLERY, ...fields })).id;
}

/**
 * `count` Draft shipments titled "Piece 1", "Piece 2"..., in requests of at most 10, to an inline destination; from a
 * stored address when `fulfillmentAddressId` is given, else from the gallery's address inline.
 */
export async function seedShipments(target: CliTarget, count: number, fulfillmentAddressId?: number): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < count; start += 10) {
    const batch = Array.from({ length: Math.min(10, count - start) }, (_, i) => ({
      title: `Piece ${start + i + 1}`,
      value: 1000 + start + i,
      length: 30,
      height: 24,
      depth: 3,
      service: 1,
      ...(fulfillmentAddressId === undefined ? { fulfillment_address: GALLERY } : { fulfillment_address_id: fulfillmentAddressId }),
      destination_address: { ...GALLERY, name: "Collector", line_1: "5 Pine Street" },
    }));
    const created = await post<{ shipments: Array<{ id: number }> }>(target, "/api/v1/shipments", { shipments: batch });
    ids.push(...created.shipments.map((s) => s.id));
  }
  return ids;
}

/** A shipment's status as the service reports it. */
export async function statusOf(target: CliTarget, id: number): Promise<number> {
  const res = await request(`${target.url}/api/v1/shipments/${id}`, {
    headers: { authorization: `Bearer ${target.token}`, accept: "application/json" },
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`reading shipment ${id} answered ${res.statusCode}: ${text}`);
  return (JSON.parse(text) as { data: { status: number } }).data.status;
}
