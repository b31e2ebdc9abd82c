import { describe, expect, it } from "vitest";
import { readPhone } from "../../../src/csv/phone-cell.js";

describe("readPhone", () => {
  it("reads national numbers with the row's country into E.164, marking the change", () => {
    expect(readPhone("(206) 953-6978", "US", "phone")).toEqual({ ok: true, value: "+12069536978", changed: true });
    expect(readPhone("020 7946 0958", "GB", "phone")).toEqual({ ok: true, value: "+442079460958", changed: true });
    expect(readPhone("01 42 68 53 00", "FR", "phone")).toEqual({ ok: true, value: "+33142685300", changed: true });
  });

  it("keeps E.164 as it is and reads international forms without a country", () => {
    expect(readPhone("+12069536978", undefined, "phone")).toEqual({ ok: true, value: "+12069536978", changed: false });
    expect(readPhone("+49 30 901820", undefined, "phone")).toEqual({ ok: true, value: "+4930901820", changed: true });
    expect(readPhone("0044 20 7946 0958", "US", "phone")).toEqual({ ok: true, value: "+442079460958", changed: true });
  });

  it("refuses what it cannot read for certain, saying how to fix it", () => {
    expect(readPhone("1.20695E+10", "US", "fulfillment_phone")).toMatchObject({ ok: false, reason: expect.stringMatching(/turned into a number by the spreadsheet; format the column as Text/) });
    expect(readPhone("953-6978", undefined, "phone")).toMatchObject({ ok: false, reason: expect.stringMatching(/no country code/) });
    expect(readPhone("12", "US", "phone")).toMatchObject({ ok: false, reason: expect.stringMatching(/not a phone number in US/) });
    expect(readPhone("(206) 953-6978 ext. 4", "US", "phone")).toMatchObject({ ok: false, reason: expect.stringMatching(/extension/) });
    expect(readPhone("", "US", "phone")).toEqual({ ok: false, reason: "phone is required" });
  });
});
