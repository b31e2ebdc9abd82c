// Draft shipments put straight into a sandbox organization over HTTP (POST /api/v1/shipments), so checkout's tests
// do not depend on the commands that create them.
import { request } from "undici";
import type { CliTarget } from "../../helpers/cli.js";

/** An address the sandbox accepts (US, E.164 phone). */
const ADDRESS = {
  name: "Gallery North",
  email: "ship@gallery.example",
  phone: "+12069536978",
  line_1: "1 Main Street",
  city: "Seattle",
  region: "WA",
  post_code: "98101",
  country: 1,
};

/** `count` Draft shipments titled "Piece 1", "Piece 2"..., created in requests of at most 10. */
export async function seedDrafts(target: CliTarget, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < count; start += 10) {
    const shipments = Array.from({ length: Math.min(10, count - start) }, (_, i) => ({
      title: `Piece ${start + i + 1}`,
      value: 500 + 10 * (start + i),
      length: 30,
      height: 24,
      depth: 3,
      service: 1,
      fulfillment_address: ADDRESS,
      destination_address: { ...ADDRESS, name: "Collector", line_1: "5 Pine Street" },
    }));
    const res = await request(`${target.url}/api/v1/shipments`, {
      method: "POST",
      headers: { authorization: `Bearer ${target.token}`, accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify({ shipments }),
    });
    const text = await res.body.text();
    if (res.statusCode !== 201) throw new Error(`seeding shipments answered ${res.statusCode}: ${text}`);
    ids.push(...(JSON.parse(text) as { shipments: Array<{ id: number }> }).shipments.map((s) => s.id));
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
