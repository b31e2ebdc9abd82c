// Which organization's ledger a run uses, and whether its token is that organization's. One ledger per organization,
// in the state folder: <state>/ledger/<organization id>/. An organization is, until teams name theirs, the service's
// base URL (organizationId: the one place that decides it); the token's owner is checked by a mark kept in the
// ledger (owner.json): a salted SHA-256 of the token, never the token. The token is high-entropy (not a password), so
// a fast hash cannot be searched offline, and the salt keeps marks of the same token on two machines apart. A token
// that does not match the mark (a rotated token, another organization on the same URL, a sandbox restarted) makes
// the run check the ids it would trust against the service first (owner.ts), and record its own mark once they hold.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { stateDir } from "../config/paths.js";
import { writeFileAtomic } from "../fs/atomic-file.js";
import { LOCAL_LEDGER, type LedgerSettings } from "../config/ledger-setting.js";
import { openLedgerStore } from "./open-store.js";
import type { LedgerStore } from "./store.js";

export interface Organization {
  baseUrl: string;
  /** The run's token: only its mark is ever written. */
  token: string;
  /** Where its entries are (the connection's: config/ledger-setting.ts); the local store when not given (unit tests). */
  ledger?: LedgerSettings;
}

export interface OwnerMark {
  salt: string;
  hash: string;
}

/** The organization a connection writes for, as a folder name. */
export function organizationId(org: Pick<Organization, "baseUrl">): string {
  const url = org.baseUrl.replace(/\/+$/, "").toLowerCase();
  return createHash("sha256").update(url).digest("hex").slice(0, 20);
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
    const dir = ledgerDir(env, org);
    const mark = await readMark(join(dir, "owner.json"));
    // Entries without a mark (a run stopped before its close wrote one, or the mark removed) are checked as another token's.
    const recorded = mark !== undefined || (await readdir(join(dir, "inputs")).then((names) => names.length > 0, () => false));
    // The store the connection names (open-store.ts): the ledger line and a new organization's name go to stderr.
    const store = await openLedgerStore(org.ledger ?? LOCAL_LEDGER, { dir, baseUrl: org.baseUrl, env });
    return new OrganizationLedger(dir, store, org.token, tokenMatches(org.token, mark), recorded);
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

async function readMark(path: string): Promise<OwnerMark | undefined> {
  try {
    const value = JSON.parse(await readFile(path, "utf8")) as Partial<OwnerMark>;
    return typeof value.salt === "string" && typeof value.hash === "string" ? { salt: value.salt, hash: value.hash } : undefined;
  } catch {
    return undefined;
  }
}
