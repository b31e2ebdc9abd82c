// `npm run bench`: runs every bench/*.mjs (except this file and helpers starting with "_") one after another, each in
// its own process so one benchmark's memory and warm caches cannot colour the next. Each prints its own table of
// figures beside a baseline measured in the same run. Pass names to run only some: `npm run bench -- startup batch`.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith(".mjs") && f !== "run.mjs" && !f.startsWith("_"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

let failed = 0;
for (const file of files) {
  process.stdout.write(`\n## ${file}\n`);
  const r = spawnSync(process.execPath, ["--expose-gc", join(here, file)], { stdio: "inherit" });
  if (r.status !== 0) {
    failed++;
    process.stdout.write(`(${file} exited ${r.status ?? r.signal})\n`);
  }
}
process.exitCode = failed ? 1 : 0;
