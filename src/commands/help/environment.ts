// `shipctl help environment`: every environment variable shipctl reads, in one table. README's "Environment
// variables" lists the same names in the same order, and a unit test fails when a SHIPCTL_* name in src/ is missing
// here (test/unit/commands/help/environment.test.ts), so the three never drift apart.

export interface EnvironmentVariable {
  /** The names read, the usual one first (a proxy is read in either case). */
  names: readonly string[];
  /** shipctl's own, or a convention other tools share. */
  kind: "shipctl" | "standard";
  /** What setting it does. */
  does: string;
  /** What applies when it is unset or empty. */
  unset: string;
}

const SHIPCTL_VARIABLES: readonly Omit<EnvironmentVariable, "kind">[] = [
  {
    names: ["SHIPCTL_PROFILE"],
    does: "the saved profile to use; --profile wins over it",
    unset: 'the config file\'s currentProfile, else "default"',
  },
  {
    names: ["SHIPCTL_BASE_URL"],
    does: "the service's URL for this run; --base-url wins over it. Another origin than the profile's needs SHIPCTL_TOKEN",
    unset: "the profile's base URL",
  },
  {
    names: ["SHIPCTL_TOKEN"],
    does: "the API token, over the profile's saved one (there is no token flag: command lines end up in shell history)",
    unset: "the profile's token (shipctl login)",
  },
  {
    names: ["SHIPCTL_CONFIG_DIR"],
    does: "the folder of config.json (profiles and tokens); the state and cache folders become its state/ and cache/",
    unset: "~/.config/shipctl-nodejs (Linux), ~/Library/Preferences/shipctl-nodejs (macOS), %APPDATA%\\shipctl-nodejs\\Config",
  },
  {
    names: ["SHIPCTL_STATE_DIR"],
    does: "the state folder: the ledger (what was sent, and its answers), and the statuses watch saw last",
    unset: "$XDG_STATE_HOME/shipctl or ~/.local/state/shipctl, ~/Library/Application Support/shipctl, %LOCALAPPDATA%\\shipctl\\State",
  },
  {
    names: ["SHIPCTL_CACHE_DIR"],
    does: "the folder where report upload --fit keeps its fitted copies of photos (safe to delete)",
    unset: "$XDG_CACHE_HOME/shipctl or ~/.cache/shipctl, ~/Library/Caches/shipctl, %LOCALAPPDATA%\\shipctl\\Cache",
  },
  {
    names: ["SHIPCTL_SHELL"],
    does: "the shell that commands printed to run again are quoted for: powershell, cmd or posix",
    unset: "powershell on Windows, posix elsewhere",
  },
  {
    names: ["SHIPCTL_APPLY_WINDOW"],
    does: "seconds the service may still be applying a write whose answer was lost (nothing is resent before); 60 to 604800 (a week)",
    unset: "300 (5 minutes); a shipctl sandbox declares its own",
  },
  {
    names: ["SHIPCTL_CONNECT_TIMEOUT"],
    does: "seconds a connection may take, to the service or to a proxy (its answer to CONNECT included); above 0, at most 10",
    unset: "10",
  },
  {
    names: ["SHIPCTL_LOOK_DAYS"],
    does: "days back the look before a create reads the organization's shipments for ones another machine created (not sent again); 0 turns the look off",
    unset: "the profile's lookDays, else 7",
  },
  {
    names: ["SHIPCTL_LEDGER"],
    does: "where the organization's ledger is: local, or a team's PostgreSQL URL (postgres://...; credentials there or in PG* variables, never printed): docs/team.md",
    unset: "the profile's ledger, else local (files in the state folder)",
  },
  {
    names: ["SHIPCTL_ORGANIZATION"],
    does: "the organization's name in a shared ledger (the same on every machine of the team); required with a postgres:// ledger",
    unset: "the profile's organization; a shared ledger refuses to run without one",
  },
];

const STANDARD_VARIABLES: readonly Omit<EnvironmentVariable, "kind">[] = [
  {
    names: ["NO_COLOR"],
    does: "any value but empty: no colours, as --no-color",
    unset: "colours on a stream that is a terminal",
  },
  {
    names: ["FORCE_COLOR"],
    does: "set, even empty: colours where the stream is no terminal too; 0 or false: no colours. NO_COLOR, --no-color win",
    unset: "colours on a stream that is a terminal",
  },
  {
    names: ["CI"],
    does: "set (CI=true, as CI services do; not 0 or false): never prompt, as --no-input, even with a terminal",
    unset: "prompts only when stdin and stdout are terminals and --no-input is not given",
  },
  {
    names: ["HTTPS_PROXY", "https_proxy"],
    does: "the proxy (http://host:port) for requests to an https:// base URL",
    unset: "HTTP_PROXY, else no proxy",
  },
  {
    names: ["HTTP_PROXY", "http_proxy"],
    does: "the proxy for requests to an http:// base URL, and to https:// ones when HTTPS_PROXY is unset",
    unset: "no proxy",
  },
  {
    names: ["NO_PROXY", "no_proxy"],
    does: "hosts reached without the proxy: comma-separated names, .domain suffixes, host:port, * for all",
    unset: "with a proxy set, every host goes through it but loopback (localhost, 127.0.0.0/8, [::1]): never proxied",
  },
  {
    names: ["NODE_EXTRA_CA_CERTS"],
    does: "a PEM file of CA certificates to trust besides Node's (a private CA, a TLS-inspecting proxy)",
    unset: "Node's bundled CA certificates (a profile may name a CA file of its own)",
  },
  {
    names: ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"],
    does: "Linux and other Unix: where the config, state and cache folders go, unless a SHIPCTL_*_DIR says",
    unset: "~/.config, ~/.local/state, ~/.cache",
  },
  {
    names: ["APPDATA", "LOCALAPPDATA"],
    does: "Windows: where the config folder (APPDATA), and the state and cache folders (LOCALAPPDATA), go",
    unset: "AppData\\Roaming and AppData\\Local in the home folder",
  },
  {
    names: ["NODE_COMPILE_CACHE", "NODE_DISABLE_COMPILE_CACHE"],
    does: "Node 22.8 and later: where Node keeps shipctl's compiled code so runs start sooner; DISABLE=1 turns it off",
    unset: "node-compile-cache in the OS temp folder",
  },
];

export const ENVIRONMENT_VARIABLES: readonly EnvironmentVariable[] = [
  ...SHIPCTL_VARIABLES.map((v) => ({ ...v, kind: "shipctl" as const })),
  ...STANDARD_VARIABLES.map((v) => ({ ...v, kind: "standard" as const })),
];

const NOTES = `An empty SHIPCTL_* value counts as unset. Flags win over variables. A leading ~ in SHIPCTL_CONFIG_DIR, _STATE_DIR and
_CACHE_DIR is the home folder. TERM is not read: colours and progress follow whether the stream is a terminal, NO_COLOR
and FORCE_COLOR. docs/configuration.md: Environment variables.
`;

export function environmentText(): string {
  const section = (kind: EnvironmentVariable["kind"], heading: string) =>
    `${heading}\n${ENVIRONMENT_VARIABLES.filter((v) => v.kind === kind)
      .map((v) => `  ${v.names.join(", ")}\n      ${v.does}\n      unset: ${v.unset}\n`)
      .join("")}`;
  return `Environment variables shipctl reads.\n\n${section("shipctl", "shipctl's own:")}\n${section("standard", "Standard:")}\n${NOTES}`;
}

/** `help environment --json`: one entry per variable (or group of names read together), its kind after its names. */
export function environmentJson() {
  return ENVIRONMENT_VARIABLES.map(({ names, kind, does, unset }) => ({ names, kind, does, unset }));
}
