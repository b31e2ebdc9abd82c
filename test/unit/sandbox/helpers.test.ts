// Small pure parts of the sandbox: messages, patterns, timestamps, magic numbers, the state writer.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { pathPattern } from "../../../src/sandbox/faults.js";
import { validationReply } from "../../../src/sandbox/http.js";
import { detectImage } from "../../../src/sandbox/multipart.js";
import { StateWriter } from "../../../src/sandbox/persist.js";
import type { StateFile } from "../../../src/sandbox/state.js";
import { serviceTimestamp, parseControlTime } from "../../../src/sandbox/org-clock.js";
import { fieldMessage, zodErrors } from "../../../src/sandbox/request-validation.js";
import { tempDir } from "../../helpers/cli.js";

describe("validation messages", () => {
  it("rewrites a schema message to name the full path, as the framework does", () => {
    expect(fieldMessage("shipments.3.title", "title may be at most 50 characters (got 51)")).toBe("The shipments.3.title field may be at most 50 characters (got 51).");
    expect(fieldMessage("shipments.0", "shipments id must be a positive whole number")).toBe("The shipments.0 field must be a positive whole number.");
    expect(fieldMessage("x", "Invalid input: expected object")).toBe("The x field is invalid: Invalid input: expected object.");
  });

  it("adds '(and N more errors)' to the first message", () => {
    expect(validationReply({ a: ["The a field is required."], b: ["One.", "Two."] }).json).toEqual({
      message: "The a field is required. (and 2 more errors)",
      errors: { a: ["The a field is required."], b: ["One.", "Two."] },
    });
    expect((validationReply({ a: ["A."], b: ["B."] }).json as { message: string }).message).toBe("A. (and 1 more error)");
  });

  it("reports missing fields as required and unknown keys by their full path", () => {
    const schema = z.strictObject({ items: z.array(z.strictObject({ name: z.string() })) });
    const raw = { items: [{ colour: "red" }] };
    const parsed = schema.safeParse(raw);
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(zodErrors(parsed.error.issues, raw, "")).toEqual({
      "items.0.name": ["The items.0.name field is required."],
      "items.0.colour": ["The items.0.colour field is not allowed."],
    });
  });
});

describe("fault path patterns", () => {
  it.each([
    ["/api/v1/shipments", "/api/v1/shipments", true],
    ["/api/v1/shipments", "/api/v1/shipments/1", false],
    ["/api/v1/shipments/*", "/api/v1/shipments/12", true],
    ["/api/v1/shipments/*", "/api/v1/shipments", false],
    ["/api/v1/reports/*/*", "/api/v1/reports/4/2", true],
    ["/api/v1/**", "/api/v1", true],
    ["/api/v1/**", "/api/v1/reports/4/2", true],
    ["**", "/anything/at/all", true],
    ["/api/v1/ship.ents", "/api/v1/shipments", false],
  ])("%s against %s -> %s", (pattern, path, expected) => {
    expect(pathPattern(pattern).test(path)).toBe(expected);
  });
});

describe("timestamps", () => {
  it("formats UTC without a zone and reads both the service format and ISO with a zone", () => {
    expect(serviceTimestamp(Date.UTC(2024, 11, 9, 13, 49, 57, 999))).toBe("2024-12-09 13:49:57");
    expect(parseControlTime("2024-12-09 13:49:57")).toBe(Date.UTC(2024, 11, 9, 13, 49, 57));
    expect(parseControlTime("2024-12-09T15:49:57+02:00")).toBe(Date.UTC(2024, 11, 9, 13, 49, 57));
  });

  it("reads a zone-less ISO time as UTC, like the service's own format, never as local time", () => {
    expect(parseControlTime("2024-12-09T13:49:57")).toBe(Date.UTC(2024, 11, 9, 13, 49, 57));
  });

  it("refuses impossible dates and other text", () => {
    expect(parseControlTime("2024-02-30 00:00:00")).toBeUndefined();
    expect(parseControlTime("2024-02-30T00:00:00Z")).toBeUndefined();
    expect(parseControlTime("2024-12-09T24:00:00+02:00")).toBeUndefined();
    expect(parseControlTime("2024-12-09T13:49Z")).toBe(Date.UTC(2024, 11, 9, 13, 49));
    expect(parseControlTime("2024-12-09")).toBeUndefined();
    expect(parseControlTime("yesterday")).toBeUndefined();
  });
});

describe("detectImage", () => {
  it("reads JPEG and PNG magic numbers only", () => {
    expect(detectImage(Buffer.from([0xff, 0xd8, 0xff, 0xe1]))).toBe("jpeg");
    expect(detectImage(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe("png");
    expect(detectImage(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBeUndefined();
    expect(detectImage(Buffer.from("GIF89a"))).toBeUndefined();
    expect(detectImage(Buffer.alloc(0))).toBeUndefined();
  });
});

describe("StateWriter", () => {
  it("coalesces saves made during a write, and each caller's change is on disk when its save resolves", async () => {
    const file = join(tempDir("sandbox-writer-"), "state.json");
    let version = 0;
    let snapshots = 0;
    const writer = new StateWriter(file, () => {
      snapshots++;
      return { version: 1, seq: { org: version, address: 0, shipment: 0, record: 0 }, orgs: [] } as StateFile;
    });
    const saves: Array<Promise<void>> = [];
    for (let i = 1; i <= 10; i++) {
      version = i;
      saves.push(writer.save().then(() => expect(JSON.parse(readFileSync(file, "utf8")).seq.org).toBeGreaterThanOrEqual(i)));
    }
    await Promise.all(saves);
    await writer.idle();
    // The first save writes at once; the nine made while it ran share one more write.
    expect(snapshots).toBe(2);
    expect(JSON.parse(readFileSync(file, "utf8")).seq.org).toBe(10);
  });
});
