// End-to-end tests run the built CLI: build it once before any test runs, so a test never meets a stale dist/.
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

export default function setup(): void {
  execFileSync(process.execPath, [resolve(import.meta.dirname, "../scripts/build.mjs")], { stdio: "inherit" });
}
