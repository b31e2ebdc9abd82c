// Every test run gets one folder of its own for what its tests and the CLI they spawn write to the OS temp folder:
// tempDir() and the rest use os.tmpdir(), which reads TMPDIR (TEMP and TMP on Windows), so pointing those here before
// the workers start gathers thousands of test folders into one, removed when the run ends. Without it a developer's
// /tmp grew by about 20,000 folders a day of test runs.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "shipctl-tests-"));
  // Open to every user, as the OS temp folder is: the PostgreSQL tests run the server as the postgres user.
  chmodSync(root, 0o1777);
  for (const name of ["TMPDIR", "TEMP", "TMP"]) process.env[name] = root;
  // A process a test left running (Windows holds its open files) may keep a file: what remains is the OS's to clean.
  return () => rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}
