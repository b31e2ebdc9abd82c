// Defect 7 of issue 10: a photo the user may not read was "a bug in shipctl" (exit 1). It is a problem of that file,
// listed with every other problem of every folder, and nothing is sent (exit 2). The file system's refusal is
// simulated here, so the test means the same as root (for whom chmod 000 changes nothing); the end-to-end test
// test/e2e/report/unreadable.test.ts makes a real one.
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { ExitCode } from "../../../src/errors.js";
import { checkFolder, unreadableProblem } from "../../../src/reports/folder-check.js";
import { prepareReports } from "../../../src/reports/prepare-reports.js";
import { fixture } from "../../helpers/cli.js";
import { batchDepsFor } from "./batch-deps.js";

/** Paths whose opening the file system refuses, as it does for a file without read permission. */
const refused = new Set<string>();

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  return {
    ...fs,
    openSync: ((path: string, ...rest: unknown[]) => {
      if (refused.has(String(path))) {
        throw Object.assign(new Error(`EACCES: permission denied, open '${String(path)}'`), { code: "EACCES", errno: -13, syscall: "open", path });
      }
      return (fs.openSync as (...a: unknown[]) => number)(path, ...rest);
    }) as typeof fs.openSync,
  };
});

function copyOf(name: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), "shipctl-unreadable-")), name);
  cpSync(fixture("photos", name), dir, { recursive: true });
  return dir;
}

describe("a photo that cannot be read", () => {
  it("is a problem of that file, with how to fix it", async () => {
    const dir = copyOf("nested");
    refused.add(join(dir, "box", "top.jpg"));
    const r = await checkFolder(dir);
    expect(r.problems).toEqual([
      { file: "box/top.jpg", problem: "cannot be read: permission denied (EACCES)", fix: expect.stringContaining("chmod u+r") },
    ]);
    expect(r.photos.map((p) => p.file)).not.toContain("box/top.jpg");
  });

  it("is listed with every other folder's problems at once: exit 2, nothing sent", async () => {
    const unreadable = copyOf("nested");
    refused.add(join(unreadable, "art", "left.png"));
    const { deps, io } = batchDepsFor({}, new Date());
    const targets = [
      { shipmentId: 1, folder: unreadable, label: "1" },
      { shipmentId: 2, folder: fixture("photos/bad-types"), label: "2" },
    ];
    await expect(prepareReports(deps, targets, { byOrder: false, fit: false, json: true })).rejects.toMatchObject({
      exitCode: ExitCode.Usage,
      message: expect.stringMatching(/problems in 2 folders: nothing was sent$/),
    });
    const problems = (JSON.parse(io.stdout()) as { sent: boolean; problems: Array<{ folder: string; file: string; problem: string }> }).problems;
    expect(problems).toContainEqual(expect.objectContaining({ folder: "1", file: "art/left.png", problem: "cannot be read: permission denied (EACCES)" }));
    expect(problems.filter((p) => p.folder === "2").length).toBeGreaterThan(0);
    expect(io.stderr()).toContain("art/left.png: cannot be read: permission denied (EACCES)");
  });

  it("words the file system's other refusals, and leaves errors that are not the file system's to be thrown", () => {
    const errno = (code: string) => Object.assign(new Error(`${code}: x`), { code });
    expect(unreadableProblem("a.jpg", errno("EPERM")).problem).toBe("cannot be read: permission denied (EPERM)");
    expect(unreadableProblem("a.jpg", errno("ENOENT")).problem).toBe("disappeared while the folder was being checked");
    expect(unreadableProblem("a.jpg", errno("EIO")).problem).toBe("cannot be read (EIO: EIO: x)");
    expect(() => unreadableProblem("a.jpg", new TypeError("a bug"))).toThrow("a bug");
  });
});
