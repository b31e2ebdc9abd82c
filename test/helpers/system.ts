// What a test may assume of the system it runs on (Linux, macOS, Windows; Windows under Wine in CI). A test that
// needs what the system lacks is skipped under a title that says why, so every skip names its category and reason
// (test/windows/smoke.sh lists them).
import { lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";

function canSymlink(): boolean {
  const dir = mkdtempSync(join(tmpdir(), "shipctl-symlink-"));
  try {
    writeFileSync(join(dir, "target"), "through");
    symlinkSync(join(dir, "target"), join(dir, "link"));
    // Wine's symlinkSync succeeds and leaves no link: one that cannot be read through does not count.
    return lstatSync(join(dir, "link")).isSymbolicLink() && readFileSync(join(dir, "link"), "utf8") === "through";
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Creating a symlink: Windows needs a privilege (SeCreateSymbolicLinkPrivilege, or Developer Mode) for it. */
export const SYMLINKS = canSymlink();

/** POSIX file modes (0600): Windows has none (Node reports 0666, or 0444 for a read-only file). */
export const FILE_MODES = process.platform !== "win32";

/** git on the PATH (Wine's PATH has none: the Windows smoke runs without it). */
export const GIT = spawnSync("git", ["--version"]).status === 0;

/**
 * A PostgreSQL server the shared-ledger tests can start (postgres-server.mjs runs initdb and postgres as Linux and
 * macOS install them, on a Unix socket): not on Windows, where Wine sees Debian's binaries through Z: but cannot run them.
 */
export const POSTGRES_SERVER = process.platform !== "win32";

/** A change of process.env.TZ that the process's local time follows (Windows Node under Wine keeps the zone it started in). */
function zoneFollowsTz(): boolean {
  const tz = process.env.TZ;
  try {
    process.env.TZ = "Europe/Paris";
    return new Date("2026-01-10T14:02:00Z").getTimezoneOffset() === -60;
  } finally {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  }
}

/** Tests that move the process to another time zone (process.env.TZ) and read its local times there. */
export const TZ_SWITCH = zoneFollowsTz();

const REASONS = {
  symlinks: "this system makes no symlink that can be read through (Windows: a privilege this account lacks; Wine)",
  git: "git is not on this system's PATH",
  "POSIX shell": "the command is written for /bin/sh, which this system does not have",
  PostgreSQL: "the tests start PostgreSQL as Linux and macOS install it; on Windows (Wine) there is none they can start",
  "time zones": "this process keeps its time zone when process.env.TZ changes (Windows Node under Wine)",
} as const;

/** The test's title, with the reason it is skipped where `available` is false. */
export function needs(available: boolean, category: keyof typeof REASONS, title: string): string {
  return available ? title : `${title} [skipped: ${category}: ${REASONS[category]}]`;
}
