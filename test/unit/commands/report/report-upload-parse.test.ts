import { join, resolve } from "node:path";
// `report upload`: the command line to options, nothing read from disk or sent. Paths stay as given (the run
// resolves them against the folder it runs in: uploadPlan).
import { describe, expect, it } from "vitest";
import { reportUploadCommand, uploadPlan } from "../../../../src/commands/report/report-upload.js";
import { UsageError } from "../../../../src/errors.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions(reportUploadCommand, argv);

describe("report upload (parse only)", () => {
  it("defaults: one folder, no fitting, no preview, 2 at a time, wait for an earlier upload", async () => {
    expect(await parse(["12", "photos", "--set", "1"])).toEqual({
      set: 1,
      source: { kind: "single", shipmentId: 12, folder: "photos" },
      byOrder: false,
      yes: false,
      fit: false,
      preview: undefined,
      concurrency: 2,
      wait: true,
      allowReused: false,
    });
  });

  it("--allow-reused sends a set with photos another set sent", async () => {
    expect(await parse(["12", "photos", "--set", "2", "--allow-reused"])).toMatchObject({ allowReused: true });
  });

  it("every flag of a single folder: --set 2, --by-order, --yes (and -y), --fit, --preview, --no-wait", async () => {
    expect(await parse(["12", "photos", "--set", "2", "--by-order", "--yes", "--fit", "--preview", "sheet.PNG", "--no-wait"])).toMatchObject({
      set: 2,
      byOrder: true,
      yes: true,
      fit: true,
      preview: { file: "sheet.PNG", format: "png" },
      wait: false,
    });
    expect(await parse(["12", "photos", "--set", "1", "-y"])).toMatchObject({ yes: true });
  });

  it("a batch: --batch or --manifest, --concurrency, an HTML --preview", async () => {
    expect(await parse(["--set", "2", "--batch", "r", "--concurrency", "4", "--preview", "all.html"])).toMatchObject({
      source: { kind: "batch", root: "r" },
      concurrency: 4,
      preview: { file: "all.html", format: "html" },
    });
    expect(await parse(["--set", "1", "--manifest", "m.csv"])).toMatchObject({ source: { kind: "manifest", file: "m.csv" } });
  });

  it.each([
    [["--set", "1"], "give the shipment id and the photo folder"],
    [["12", "p"], "--set is required"],
    [["12", "p", "--set", "3"], "the set is 1"],
    [["x", "p", "--set", "1"], "positive whole number"],
    [["12", "--set", "1", "--batch", "r"], "drop the arguments"],
    [["--set", "1", "--batch", "r", "--manifest", "m.csv"], "not both"],
    [["--set", "1", "--batch", "r", "--concurrency", "0"], "--concurrency must be a whole number from 1 to 16 (got 0)"],
    [["--set", "1", "--batch", "r", "--concurrency", "17"], "--concurrency must be a whole number from 1 to 16 (got 17)"],
    [["12", "p", "--set", "1", "--preview", "x.pdf"], ".html or .png"],
    [["--set", "1", "--batch", "r", "--preview", "x.png"], "FILE.html"],
  ])("refuses %j (exit 2)", async (argv, message) => {
    const e = await parse(argv).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).message).toContain(message);
  });

  it("--ledger is gone (the ledger is the organization's, in the state folder): commander refuses it as unknown (exit 2)", async () => {
    for (const argv of [["--set", "1", "--batch", "r", "--ledger", "j.jsonl"], ["12", "p", "--set", "1", "--ledger", "j"]]) {
      await expect(parse(argv)).rejects.toMatchObject({ code: "commander.unknownOption", message: expect.stringContaining("unknown option '--ledger'") });
    }
  });

  it("more than two arguments is commander's own refusal", async () => {
    await expect(parse(["12", "p", "q", "--set", "1"])).rejects.toMatchObject({ code: "commander.excessArguments" });
  });
});

describe("report upload: paths resolved for the run", () => {
  it("against the folder the command ran in; a single folder keeps the path as given for messages", async () => {
    const work = resolve("/work");
    expect(uploadPlan(await parse(["12", "photos", "--set", "1", "--preview", "s.html"]), work)).toMatchObject({
      source: { kind: "single", shipmentId: 12, folder: join(work, "photos"), label: "photos" },
      preview: { file: join(work, "s.html"), format: "html" },
    });
    expect(uploadPlan(await parse(["--set", "2", "--batch", "r"]), work)).toMatchObject({ source: { kind: "batch", root: join(work, "r") } });
    expect(uploadPlan(await parse(["--set", "2", "--manifest", join("m", "a.csv")]), work)).toMatchObject({ source: { kind: "manifest", file: join(work, "m", "a.csv") } });
  });
});

describe("report upload: a blank path", () => {
  // Resolved against the working folder, a blank path (an unset variable in a script) would upload from the folder
  // the command ran in.
  it("refuses a blank --batch, --manifest or photo folder (exit 2)", async () => {
    await expect(parse(["--set", "1", "--batch", ""])).rejects.toThrow(new UsageError("--batch needs a folder"));
    await expect(parse(["--set", "1", "--manifest", " "])).rejects.toThrow(new UsageError("--manifest needs a file name"));
    await expect(parse(["12", "", "--set", "1"])).rejects.toThrow(/the photo folder is blank/);
  });
});
