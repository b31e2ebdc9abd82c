// `--csv -` at a terminal says it is reading, as `--file -` does: a run waiting for typed input in silence looks hung.
import { describe, expect, it } from "vitest";
import { withBatch } from "../../../src/batch/batch-run.js";
import type { CsvOptions } from "../../../src/batch/run-options.js";
import { CREATE_WORDS as WORDS } from "../../../src/shipments/send-creates.js";
import { testDeps } from "../../helpers/deps.js";
import { tempDir } from "../../helpers/cli.js";

const OPTIONS = { csv: "-", dryRun: true, concurrency: 1, verify: false } as CsvOptions;

describe("--csv - (stdin)", () => {
  it("at a terminal, says it reads stdin until Ctrl-D before waiting for it", async () => {
    const { deps, io } = testDeps({ tty: true, stdin: "title\nA\n", configDir: tempDir() });
    await withBatch(deps, OPTIONS, "shipment-create", WORDS, async () => 0).catch(() => undefined);
    expect(io.stderr()).toContain("Reading CSV from stdin (finish with Ctrl-D)...");
  });

  it("from a pipe, says nothing of the kind", async () => {
    const { deps, io } = testDeps({ stdin: "title\nA\n", configDir: tempDir() });
    await withBatch(deps, OPTIONS, "shipment-create", WORDS, async () => 0).catch(() => undefined);
    expect(io.stderr()).not.toContain("Reading CSV from stdin");
  });
});
