import { describe, expect, it } from "vitest";
import { UsageError } from "../../../../src/errors.js";
import { parseReportUpload } from "../../../../src/commands/report/report-upload.js";

describe("parseReportUpload: a blank path", () => {
  // Resolved against the working folder, a blank path (an unset variable in a script) would upload from the folder
  // the command ran in.
  it("refuses a blank --batch, --manifest or photo folder", () => {
    expect(() => parseReportUpload([], { set: "1", batch: "" })).toThrow(new UsageError("--batch needs a folder"));
    expect(() => parseReportUpload([], { set: "1", manifest: " " })).toThrow(new UsageError("--manifest needs a file name"));
    expect(() => parseReportUpload(["12", ""], { set: "1" })).toThrow(/the photo folder is blank/);
  });

  it("still takes a folder or root as given", () => {
    expect(parseReportUpload(["12", "./p"], { set: "1" }).source).toEqual({ kind: "single", shipmentId: 12, folder: "./p" });
    expect(parseReportUpload([], { set: "1", batch: "." }).source).toEqual({ kind: "batch", root: "." });
  });
});
