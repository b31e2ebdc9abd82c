import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { checkFolder } from "../../../src/reports/folder-check.js";
import { htmlSheet, writePreview } from "../../../src/reports/contact-sheet.js";
import { previewFormat } from "../../../src/reports/upload-plan.js";
import { fixture, tempDir } from "../../helpers/cli.js";

describe("preview", () => {
  it("knows its formats by extension", () => {
    expect(previewFormat("a.HTML")).toBe("html");
    expect(previewFormat("a.htm")).toBe("html");
    expect(previewFormat("a.png")).toBe("png");
    expect(previewFormat("a.pdf")).toBeUndefined();
  });

  it("puts one section per report in one self-contained page, names escaped", async () => {
    const a = await checkFolder(fixture("photos/nested"));
    const b = await checkFolder(fixture("photos/flat"));
    const html = await htmlSheet([
      { title: "Shipment 1 · set 1", folder: "<nested>", photos: a.photos },
      { title: "Shipment 2 · set 1", folder: "flat & co", photos: b.photos },
    ]);
    expect(html.match(/<section>/g)).toHaveLength(2);
    expect(html.match(/src="data:image\/jpeg;base64,/g)).toHaveLength(24);
    expect(html).toContain("&lt;nested&gt;");
    expect(html).toContain("flat &amp; co");
    expect(html).toContain("default-src 'none'");
  });

  it("draws a PNG of 6 columns and 2 rows for one report, and refuses a PNG for a batch", async () => {
    const check = await checkFolder(fixture("photos/nested"));
    const file = join(tempDir(), "sheet.png");
    await writePreview(file, [{ title: "Shipment 1 · set 1", folder: "x", photos: check.photos }]);
    const meta = await sharp(readFileSync(file)).metadata();
    expect(meta.format).toBe("png");
    expect(meta.width!).toBeGreaterThan(meta.height!);
    await expect(writePreview(file, [{ title: "a", folder: "x", photos: check.photos }, { title: "b", folder: "y", photos: check.photos }])).rejects.toThrow(
      /one report/,
    );
  });
});
