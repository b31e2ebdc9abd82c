// `sandbox`: the command line to options, nothing started.
import { describe, expect, it } from "vitest";
import { sandboxCommand } from "../../../../src/commands/sandbox/sandbox.js";
import { UsageError } from "../../../../src/errors.js";
import { DEFAULT_APPLY_MAX_MS, SANDBOX_DEFAULT_PORT } from "../../../../src/sandbox/defaults.js";
import { parsedOptions } from "../../../helpers/parse-verb.js";

const parse = (argv: string[]) => parsedOptions(sandboxCommand, argv);

describe("sandbox (parse only)", () => {
  it("defaults: the usual port on 127.0.0.1, the default token, in memory, no latency, logging each request", async () => {
    expect(await parse([])).toEqual({
      port: SANDBOX_DEFAULT_PORT,
      host: "127.0.0.1",
      token: undefined,
      state: undefined,
      latencyMs: 0,
      applyMaxMs: DEFAULT_APPLY_MAX_MS,
      shipmentShape: "inline",
    });
  });

  it("every flag; the state file stays as given", async () => {
    const argv = ["--port", "0", "--host", "0.0.0.0", "--token", "t-1", "--state", "s.json", "--latency", "20", "--apply-max", "1000", "--tick", "30", "--shipment-shape", "id"];
    expect(await parse(argv)).toEqual({ port: 0, host: "0.0.0.0", token: "t-1", state: "s.json", latencyMs: 20, applyMaxMs: 1000, tickSeconds: 30, shipmentShape: "id" });
  });

  it.each([
    [["--port", "65536"], '--port must be a whole number from 0 to 65535 (got "65536")'],
    [["--port", "x"], "--port must be a whole number"],
    [["--latency", "-1"], "--latency must be a whole number from 0 to 600000"],
    [["--apply-max", "600001"], "--apply-max must be a whole number from 0 to 600000"],
    [["--token", "a b"], "--token must be non-empty and contain no spaces"],
    [["--token", ""], "--token must be non-empty"],
    [["--tick", "0"], '--tick must be a whole number of seconds from 1 to 86400 (got "0")'],
    [["--tick", "1.5"], "--tick must be a whole number of seconds"],
    [["--tick", "86401"], "--tick must be a whole number of seconds"],
    [["--shipment-shape", "ids"], '--shipment-shape must be one of inline, id, inline-with-id (got "ids")'],
    // Blank (an unset variable in a script): Node would listen on every interface and the URL printed be "http://:PORT";
    // a blank state file would be the working folder.
    [["--host", ""], "--host needs an address to listen on (127.0.0.1, 0.0.0.0...)"],
    [["--host", " "], "--host needs an address"],
    [["--state", ""], "--state needs a file name"],
  ])("refuses %j (exit 2)", async (argv, message) => {
    const e = await parse(argv).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).message).toContain(message);
  });
});
