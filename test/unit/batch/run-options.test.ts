import { describe, expect, it } from "vitest";
import { csvOptions, declaredEncoding, resumeCommand } from "../../../src/batch/run-options.js";
import { UsageError } from "../../../src/errors.js";

describe("CSV run options", () => {
  it("repeats in the resume command every flag that changes what is sent, --force-new included", () => {
    const options = csvOptions({ csv: "three (1).csv", concurrency: "2", results: "out.csv", skipInvalid: true, forceNew: true, verify: false });
    expect(resumeCommand("shipment create", options, {})).toBe(
      "shipctl shipment create --csv 'three (1).csv' --results out.csv --concurrency 2 --no-verify --skip-invalid --force-new",
    );
    expect(resumeCommand("address add", csvOptions({ csv: "a.csv" }), { profile: "prod" })).toBe("shipctl address add --csv a.csv --profile prod");
    // Run against a service named by --base-url, the rerun reaches that service (and its ledger), not the profile's.
    const elsewhere = { profile: "prod", baseUrl: "https://staging.example.com" };
    expect(resumeCommand("shipment update", csvOptions({ csv: "a.csv" }), elsewhere)).toBe(
      "shipctl shipment update --csv a.csv --profile prod --base-url https://staging.example.com",
    );
    expect(resumeCommand("address add", csvOptions({ csv: "a.csv" }), { profile: " ", baseUrl: "" })).toBe("shipctl address add --csv a.csv");
  });

  it("refuses a blank --csv, spaces too (an unset variable), naming the flag", () => {
    expect(() => csvOptions({ csv: "" })).toThrow("--csv needs a file (or - for stdin)");
    expect(() => csvOptions({ csv: "  " })).toThrow("--csv needs a file (or - for stdin)");
  });

  it("refuses a concurrency out of range, naming the bounds", () => {
    expect(() => csvOptions({ csv: "a.csv", concurrency: "0" })).toThrow(UsageError);
    expect(() => csvOptions({ csv: "a.csv", concurrency: "17" })).toThrow(/1 to 16/);
  });

  it("--encoding: names it as TextDecoder does (latin1 is windows-1252) and refuses a name it does not know", () => {
    expect(declaredEncoding("windows-1252")).toBe("windows-1252");
    expect(declaredEncoding(" Latin1 ")).toBe("windows-1252");
    expect(() => declaredEncoding("klingon")).toThrow('--encoding "klingon" is not an encoding shipctl can read');
    expect(csvOptions({ csv: "a.csv", encoding: "latin1" }).encoding).toBe("windows-1252");
  });
});
