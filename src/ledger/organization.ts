// Which organization's ledger a run uses, and whether its token is that organization's. One ledger per organization,
// in the state folder: <state>/ledger/<base URL's id>/ for the first organization met on a base URL, and "-2", "-3"...
// for others on the same URL (several accounts of one service, sandbox organizations). The token's owner is told by a
// mark kept in each ledger (owner.json): a salted SHA-256 of the token, never the token. The token is high-entropy
// (not a password), so a fast hash cannot be searched offline, and the salt keeps marks of one token on two machines
// apart. A token that matches no mark is a rotated token or another organization: a few shipments or addresses each
// ledger recorded are read back (`sees`); the ledger whose writes it sees is its organization's (its records are
// then checked as owner.ts says, and its mark recorded), and when it sees none of any, it gets a ledger of its own.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdir, readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { stateDir } from "../config/paths.js";
import { UsageError } from "../errors.js";
import { writeFileAtomic } from "../fs/atomic-file.js";
import { LOCAL_LEDGER } from "../config/ledger-setting.js";
import type { LedgerSettings } from "../deps.js";
import { LocalStore } from "./local-store.js";
import { normalBaseUrl, openLedgerStore } from "./open-store.js";
import { hexHash } from "./entry.js";
import type { LedgerStore } from "./store.js";

export interface Organization {
  baseUrl: string;
  /** The run's token: only its mark is ever written. */
  token: string;
  /** Where its entries are (the connection's: config/ledger-setting.ts); the local store when not given (unit tests). */
  ledger?: LedgerSettings;
  /**
   * Whether the token sees a shipment (or address) by id: how organizations on one base URL are told apart, on the
   * local store, when the token matches no ledger's mark. Without it (a read that sends nothing), the URL's first
   * ledger is read. A shared ledger names its organization instead (the `organization` setting).
   */
  sees?: Sees;
  /** Told when the token's organization gets a ledger of its own beside another's. */
  say?: (text: string) => void;
}

export type Sees = (kind: "shipment" | "address", id: number) => Promise<boolean>;

export interface OwnerMark {
  salt: string;
  hash: string;
}

/** The organization a connection writes for, as a folder name. */
export function organizationId(org: Pick<Organization, "baseUrl">): string {
  return hexHash(normalBaseUrl(org.baseUrl), 20);
}

export function ledgerDir(env: NodeJS.ProcessEnv, org: Pick<Organization, "baseUrl">): string {
  return join(stateDir(env), "ledger", organizationId(org));
}

function hashToken(token: string, salt: string): string {
  return createHash("sha256").update(salt).update("\n").update(token).digest("base64url");
}

export function markFor(token: string): OwnerMark {
  const salt = randomBytes(16).toString("base64url");
  return { salt, hash: hashToken(token, salt) };
}

export function tokenMatches(token: string, mark: OwnerMark | undefined): boolean {
  if (mark === undefined) return false;
  const a = Buffer.from(hashToken(token, mark.salt));
  const b = Buffer.from(mark.hash);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An organization's ledger: its store, and whether this run's token is the one its entries were recorded with. */
export class OrganizationLedger {
  private constructor(
    readonly dir: string,
    readonly store: LedgerStore,
    private readonly token: string,
    private matched: boolean,
    private readonly recorded: boolean,
  ) {}

  static async open(env: NodeJS.ProcessEnv, org: Organization): Promise<OrganizationLedger> {
    await refuseFileInTheWay(env, ledgerDir(env, org));
    // A shared ledger's organization is the name its team chose: this machine keeps one folder of records per URL for it.
    if ((org.ledger ?? LOCAL_LEDGER).kind !== "local") {
      const dir = ledgerDir(env, org);
      return OrganizationLedger.at(env, dir, org, tokenMatches(org.token, await readMark(join(dir, "owner.json"))));
    }
    const folders = await foldersOf(env, org);
    const marks = await Promise.all(folders.map((dir) => readMark(join(dir, "owner.json"))));
    const mine = marks.findIndex((mark) => tokenMatches(org.token, mark));
    if (mine >= 0) return OrganizationLedger.at(env, folders[mine]!, org, true);
    const dir = await whoseLedger(folders, org);
    if (dir !== undefined) return OrganizationLedger.at(env, dir, org, false);
    const own = nextFolder(folders);
    org.say?.(`This token's organization is not the one whose ledger this machine keeps for ${org.baseUrl} (it sees none of its writes): its own ledger starts in ${own}.\n`);
    return OrganizationLedger.at(env, own, org, false);
  }

  private static async at(env: NodeJS.ProcessEnv, dir: string, org: Organization, matched: boolean): Promise<OrganizationLedger> {
    // Entries without a mark (a run stopped before its close wrote one, or the mark removed) are checked as another token's.
    const recorded = (await readMark(join(dir, "owner.json"))) !== undefined || (await readdir(join(dir, "inputs")).then((names) => names.length > 0, () => false));
    // The store the connection names (open-store.ts): the ledger line and a new organization's name go to stderr.
    const store = await openLedgerStore(org.ledger ?? LOCAL_LEDGER, { dir, baseUrl: org.baseUrl, env });
    return new OrganizationLedger(dir, store, org.token, matched, recorded);
  }

  /** Whether the token matches the recorded mark, or the ledger is new (no mark, no input recorded). */
  get tokenConfirmed(): boolean {
    return this.matched || !this.recorded;
  }

  /** Records this token's mark (a new ledger, or a token whose records were checked: owner.ts). */
  async acceptToken(): Promise<void> {
    if (this.matched) return;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(join(this.dir, "owner.json"), `${JSON.stringify(markFor(this.token))}\n`);
    this.matched = true;
  }
}

/**
 * A file where the ledger's folder, or a folder of its path, should be (SHIPCTL_STATE_DIR naming a file): every read
 * of the ledger would fail as a bug, so the run stops first, naming the file, before anything is sent.
 */
async function refuseFileInTheWay(env: NodeJS.ProcessEnv, dir: string): Promise<void> {
  for (let at = dir; dirname(at) !== at; at = dirname(at)) {
    const info = await stat(at).catch(() => undefined);
    if (info === undefined) continue;
    if (info.isDirectory()) return;
    throw new UsageError(`the ledger's folder ${dir} cannot be made: ${at} is a file, where a folder of its path should be`, {
      hint: `Move aside the file ${at}, or set SHIPCTL_STATE_DIR to a folder (the state folder is ${stateDir(env)}). Nothing was sent.`,
    });
  }
}

/** The ledgers of the organizations met on this base URL: the first's, then "-2", "-3"... in that order. */
async function foldersOf(env: NodeJS.ProcessEnv, org: Pick<Organization, "baseUrl">): Promise<string[]> {
  const first = ledgerDir(env, org);
  const names = await readdir(dirname(first)).catch(() => [] as string[]);
  const prefix = `${basename(first)}-`;
  const more = names
    .filter((n) => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)))
    .map((n) => Number(n.slice(prefix.length)))
    .sort((a, b) => a - b);
  return [first, ...more.map((n) => `${first}-${n}`)];
}

/** The folder for another organization on the URL: after the last one there ("-2" after the first's alone). */
function nextFolder(folders: readonly string[]): string {
  const first = folders[0]!;
  const last = folders.length === 1 ? 1 : Number(folders[folders.length - 1]!.slice(first.length + 1));
  return `${first}-${last + 1}`;
}

/** How many recorded writes of a ledger are read back to tell whether a token is its organization's. */
const WITNESSES = 3;

/**
 * The ledger of the organization whose token matches no mark: the first whose recorded writes the token sees; else
 * the first with no write to read back (nothing tells it apart: its inputs' records are checked as owner.ts says);
 * undefined when the token sees none of any ledger's writes (another organization).
 */
async function whoseLedger(folders: readonly string[], org: Organization): Promise<string | undefined> {
  if (org.sees === undefined) return folders[0];
  let untold: string | undefined;
  for (const dir of folders) {
    const witnesses = await new LocalStore(dir).witnesses(WITNESSES);
    if (witnesses.length === 0) {
      untold ??= dir;
      continue;
    }
    for (const w of witnesses) if (await org.sees(w.kind, w.id)) return dir;
  }
  return untold;
}

async function readMark(path: string): Promise<OwnerMark | undefined> {
  try {
    const value = JSON.parse(await readFile(path, "utf8")) as Partial<OwnerMark>;
    return typeof value.salt === "string" && typeof value.hash === "string" ? { salt: value.salt, hash: value.hash } : undefined;
  } catch {
    return undefined;
  }
}
