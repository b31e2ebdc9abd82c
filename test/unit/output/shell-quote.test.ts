// Printed commands quoted for the user's shell, the platform injected: PowerShell on Windows (its documented quoting
// rules, about_Quoting_Rules: single quotes, '' for an apostrophe), POSIX elsewhere (macOS, Linux), cmd.exe when
// SHIPCTL_SHELL says so. Paths with spaces and apostrophes in each.
import { describe, expect, it } from "vitest";
import { shellQuote, userShell } from "../../../src/output/shell-quote.js";

describe("userShell", () => {
  it("is PowerShell on Windows, POSIX on macOS and Linux, and SHIPCTL_SHELL when it names one", () => {
    expect(userShell("win32", {})).toBe("powershell");
    expect(userShell("darwin", {})).toBe("posix");
    expect(userShell("linux", {})).toBe("posix");
    expect(userShell("win32", { SHIPCTL_SHELL: "cmd" })).toBe("cmd");
    expect(userShell("linux", { SHIPCTL_SHELL: " PowerShell " })).toBe("powershell");
    expect(userShell("win32", { SHIPCTL_SHELL: "fish" })).toBe("powershell");
  });
});

describe("shellQuote", () => {
  const path = "C:\\Users\\Ann O'Neil\\My Orders\\orders.csv";

  it("PowerShell: single quotes, an apostrophe written twice (also the typographic ones), plain words bare", () => {
    expect(shellQuote(path, "powershell")).toBe("'C:\\Users\\Ann O''Neil\\My Orders\\orders.csv'");
    expect(shellQuote("C:\\Users\\ann\\orders.csv", "powershell")).toBe("C:\\Users\\ann\\orders.csv");
    expect(shellQuote("O\u2019Neil", "powershell")).toBe("'O\u2019\u2019Neil'");
    // $ (a variable), ` (the escape), , (an array) and @ (a splat) mean nothing inside single quotes.
    expect(shellQuote("$HOME `n a,b @x", "powershell")).toBe("'$HOME `n a,b @x'");
    expect(shellQuote("", "powershell")).toBe("''");
  });

  it("POSIX (macOS, Linux): single quotes, an apostrophe as '\\''", () => {
    expect(shellQuote("/Users/ann/Ann O'Neil/orders.csv", "posix")).toBe("'/Users/ann/Ann O'\\''Neil/orders.csv'");
    expect(shellQuote("/Users/ann/orders.csv", "posix")).toBe("/Users/ann/orders.csv");
  });

  it("cmd.exe: double quotes (an apostrophe as it is), % outside them, escaped", () => {
    expect(shellQuote(path, "cmd")).toBe('"C:\\Users\\Ann O\'Neil\\My Orders\\orders.csv"');
    expect(shellQuote("100% sold.csv", "cmd")).toBe('"100"^%" sold.csv"');
    expect(shellQuote('say "hi"', "cmd")).toBe('"say \\"hi\\""');
    expect(shellQuote("C:\\My Photos\\", "cmd")).toBe('"C:\\My Photos\\\\"');
  });
});
