// --csv PATH: what is refused before any byte is read.
import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { openSource } from "../../../src/csv/csv-source.js";
import type { UsageError } from "../../../src/errors.js";

describe("openSource", () => {
  it("says how to export CSV from a Numbers document saved as a package (a folder)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shipctl-source-"));
    mkdirSync(join(dir, "prices.numbers"));
    const e = (await openSource("prices.numbers", dir, Readable.from([])).catch((x: unknown) => x)) as UsageError;
    expect(e.message).toBe("prices.numbers is a folder; --csv takes a CSV file");
    expect(e.hint).toMatch(/^In Numbers, use File > Export To > CSV/);
  });
});
