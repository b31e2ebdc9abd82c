// For the config tests: Deps that resolve their connection as a run does, from a config folder of their own, and
// the answer a sandbox gives at GET /_sandbox/tables.
import { systemClock } from "../../../src/clock.js";
import { tempDir } from "../../helpers/cli.js";
import { testDeps, type TestDeps, type TestDepsOptions } from "../../helpers/deps.js";

/** testDeps with the real connection, the system clock and an empty config folder (unless `env` names one). */
export function configDeps(options: Pick<TestDepsOptions, "env" | "globals" | "tty" | "stdin" | "answers"> = {}): TestDeps {
  return testDeps({
    ...options,
    realConnection: true,
    clock: systemClock,
    env: { SHIPCTL_CONFIG_DIR: tempDir("shipctl-config-unit-"), ...options.env },
  });
}

export const SANDBOX_ANSWER = {
  sandbox: true,
  countries: [
    { id: 1, alpha2: "US", alpha3: "USA", name: "United States", aliases: ["America"] },
    { id: 4, alpha2: "FR", alpha3: "FRA", name: "France" },
  ],
  services: [{ id: 2, name: "Express" }],
};
