// The demo (`shipctl demo`): the main workflow, end to end, against a sandbox started in this process. Every step is
// a real shipctl command run through main(), in a temporary config folder, so the demo proves the commands work
// together.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Deps } from "../deps.js";
import { createTranscript, type RunShipctl, type Transcript } from "./demo-transcript.js";

/** fixtures/ of the installed package (dist/main.js, a chunk in dist/chunks/ and src/demo/ all resolve to the repo root). */
function fixturesDir(): string {
  const here = fileURLToPath(import.meta.url);
  const root = here.includes(join("src", "demo")) ? resolve(here, "../../..") : resolve(here, "../..");
  return join(root.endsWith("dist") ? resolve(root, "..") : root, "fixtures");
}

/** `keep`: leave the demo's config folder and results files, and say where they are. */
export async function walkThroughDemo(deps: Deps, options: { keep: boolean }, runShipctl: RunShipctl): Promise<number> {
  const { startSandbox } = await import("../sandbox/server.js");
  const sandbox = await startSandbox({ port: 0 });
  const workDir = mkdtempSync(join(tmpdir(), "shipctl-demo-"));
  const fixtures = fixturesDir();
  // The demo's own profile store: the user's profiles are neither read nor changed.
  const env: NodeJS.ProcessEnv = { ...deps.env, SHIPCTL_CONFIG_DIR: workDir };
  for (const key of ["SHIPCTL_PROFILE", "SHIPCTL_BASE_URL", "SHIPCTL_TOKEN"]) delete env[key];
  const t = createTranscript(deps, env, fixtures, runShipctl);
  try {
    t.say(`A sandbox of the shipping service is listening at ${sandbox.url} (token ${sandbox.token}).`);
    await walkThrough(t, sandbox.url, sandbox.token, fixtures, workDir);
    t.say("Done: addresses verified and stored, shipments created from a spreadsheet, paid, and a condition report filed.");
    if (options.keep) deps.io.err(`The demo's config and results are in ${workDir}\n`);
    return 0;
  } finally {
    await sandbox.close();
    if (!options.keep) rmSync(workDir, { recursive: true, force: true });
  }
}

async function walkThrough(t: Transcript, url: string, token: string, fixtures: string, workDir: string): Promise<void> {
  t.say("1. Log in. Scripts pass the token on stdin, never as an argument.");
  await t.run(["login", "--base-url", url, "--token-stdin"], { stdin: token });

  t.say("2. Verify an address typed in a hurry: the service recommends a tidier one (exit 6 until accepted).");
  const address = [
    "--name", "Ada Lovelace", "--email", "ada@example.com", "--phone", "(206) 555-0100",
    "--line-1", "123 main st", "--city", "seattle", "--region", "washington", "--post-code", "98101 1234", "--country", "US",
  ];
  await t.run(["address", "verify", ...address], { expect: 6 });

  t.say("3. Store it, accepting the recommended revision.");
  await t.run(["address", "add", ...address, "--accept-recommended"]);

  t.say("4. Create shipments from a spreadsheet export: every row is checked before anything is sent.");
  const csv = join(fixtures, "demo", "shipments.csv");
  await t.run(["shipment", "create", "--csv", csv, "--results", join(workDir, "results.csv")]);

  t.say("5. List them.");
  await t.run(["list", "shipments"]);

  const listed = await t.quiet(["list", "shipments", "--all", "--json"]);
  const ids = (JSON.parse(listed) as { shipments: Array<{ id: number }> }).shipments.map((s) => String(s.id));
  t.say("6. Price and pay for all of them in one checkout (--yes confirms without a prompt).");
  await t.run(["checkout", ...ids, "--yes"]);

  const first = ids[0]!;
  t.say(`7. In real life the box travels; in the sandbox we move shipment ${first} to Delivered ourselves:`);
  await markDelivered(t, url, token, first);

  t.say("8. Upload its condition report (set 1: 6 box + 6 art photos) from a photo folder.");
  await t.run(["report", "upload", first, "--set", "1", join(fixtures, "photos", "nested")]);

  t.say("9. The shipment is now Filed.");
  await t.run(["shipment", "get", first]);
}

async function markDelivered(t: Transcript, url: string, token: string, id: string): Promise<void> {
  // Shown exactly as it could be pasted into a shell.
  t.say(
    `   curl -X POST ${url}/_sandbox/shipments/${id}/status -H 'Authorization: Bearer ${token}' ` +
      `-H 'Content-Type: application/json' -d '{"status":"Delivered"}'`,
  );
  // One call to the sandbox's control surface (not the service's API): Node's built-in fetch is enough here.
  const res = await fetch(`${url}/_sandbox/shipments/${id}/status`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ status: "Delivered" }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`the sandbox refused to move shipment ${id} to Delivered (${res.status})`);
}
