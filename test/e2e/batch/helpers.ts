// Reading what the sandbox holds, to check "each valid row exactly once" after every scenario.
import { request } from "undici";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OrgTarget } from "../../helpers/sandbox.js";
import { tempDir } from "../../helpers/cli.js";
import { shipmentRows, toCsv, type Row, type RowOptions } from "../../../fixtures/csv/generate.mjs";

async function getJson<T>(url: string, token: string): Promise<T> {
  const res = await request(url, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${text}`);
  return JSON.parse(text) as T;
}

/** Every item of a paginated list of the org. */
export async function listAll<T>(org: OrgTarget, kind: "shipments" | "addresses"): Promise<T[]> {
  const out: T[] = [];
  let next: string | null = `${org.url}/api/v1/${kind}?limit=50`;
  while (next) {
    const page: { data: T[]; links: { next: string | null } } = await getJson(next, org.token);
    out.push(...page.data);
    next = page.links.next;
  }
  return out;
}

/** Asserts that each title is held exactly once and nothing else is. Returns the count per title. */
export async function shipmentTitles(org: OrgTarget): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const s of await listAll<{ title: string }>(org, "shipments")) counts.set(s.title, (counts.get(s.title) ?? 0) + 1);
  return counts;
}

export function writeRows(rows: Row[], name = "orders.csv", dir = tempDir("shipctl-e2e-batch-")): string {
  const path = join(dir, name);
  writeFileSync(path, toCsv(rows));
  return path;
}

export function rowsFile(n: number, options: RowOptions & { titlePrefix: string }): { path: string; titles: string[]; rows: Row[] } {
  const rows = shipmentRows(n, options);
  return { path: writeRows(rows), titles: rows.map((r) => r.title!), rows };
}
