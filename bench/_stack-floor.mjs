// The floor of the user's stack, for bench/batch.mjs: what a fresh node process does when it only reads the CSV with
// csv-parse (no checking, no ledger, no CLI) and then sends the given request bodies with an undici Pool, as many
// at a time as asked. Any tool built on these two, shipctl included, does at least this much; its time beside the
// raw loop's is the best ratio such a tool can reach on this machine.
// Usage: node bench/_stack-floor.mjs FILE.csv BODIES.json URL TOKEN CONCURRENCY
import { createReadStream, readFileSync } from "node:fs";
import { parse } from "csv-parse";
import { Pool } from "undici";

const [csv, bodiesFile, url, token, concurrency] = process.argv.slice(2);
// Prints {"first":ms,"end":ms} (since the process started) once done: the send phase, as shipctl's phase marks give it.
let rows = 0;
for await (const _ of createReadStream(csv, { highWaterMark: 64 * 1024 }).pipe(parse())) rows++;
if (rows < 2) throw new Error(`${csv}: no rows`);
const bodies = JSON.parse(readFileSync(bodiesFile, "utf8"));
const pool = new Pool(url, { connections: Number(concurrency) });
const headers = { authorization: `Bearer ${token}`, accept: "application/json", "content-type": "application/json" };
let next = 0;
const first = performance.now();
await Promise.all(
  Array.from({ length: Number(concurrency) }, async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const res = await pool.request({ method: "POST", path: "/api/v1/shipments", headers, body });
      await res.body.dump();
      if (res.statusCode !== 201) throw new Error(`stack floor: ${res.statusCode}`);
    }
  }),
);
await pool.close();
process.stdout.write(JSON.stringify({ first, end: performance.now() }));
