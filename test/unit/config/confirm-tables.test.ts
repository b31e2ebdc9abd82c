// `config tables confirm` without a yes it can ask for: the refusal names the true reason.
import { describe, expect, it } from "vitest";
import { confirmTables } from "../../../src/config/confirm-tables.js";
import { configDeps } from "./config-fixtures.js";

describe("config tables confirm without --yes", () => {
  const refusal = (tty: boolean, input: boolean) => {
    const t = configDeps({ tty, globals: { input, baseUrl: "https://api.example.com" } });
    return confirmTables(t.deps, false).catch((e: unknown) => (e as Error).message);
  };

  it("names --no-input at a terminal, and the missing terminal elsewhere", async () => {
    expect(await refusal(true, false)).toBe("confirming tables needs a yes: pass --yes (--no-input was given)");
    expect(await refusal(false, true)).toBe("confirming tables needs a yes: pass --yes (there is no terminal to ask on)");
  });
});
