// The whole sandbox: organizations and their records, indexed so that every request costs O(1) lookups
// (by token, by id) and pagination slices a per-organization id list instead of scanning all records.
import { randomBytes } from "node:crypto";
import type { AddressRecord, Org, ShipmentRecord } from "./model.js";

export const DEFAULT_TOKEN = "sandbox-token";

/** Shape of the --state file. Bump `version` when it changes incompatibly. */
export interface StateFile {
  version: 1;
  seq: Sequences;
  orgs: Array<Org & { addresses: AddressRecord[]; shipments: ShipmentRecord[] }>;
}

interface Sequences {
  org: number;
  address: number;
  shipment: number;
  /** Price sessions, charges, reports and faults share one counter: their ids only need to be unique. */
  record: number;
}

/** What a new shipment is given (addShipments). */
export type NewShipment = Omit<ShipmentRecord, "id" | "orgId" | "price" | "priceSession" | "updatedAt">;

export function newOrg(id: number, token: string): Org {
  return {
    id,
    token,
    subscription: true,
    payment: { state: "valid" },
    verifyRateLimited: 0,
    priceFailures: { count: 0, status: 0 },
    clock: { mode: "real", offsetMs: 0 },
    createdAtLagMs: 0,
    listOrder: "asc",
    addressIds: [],
    shipmentIds: [],
    priceSessions: [],
    charges: [],
    reports: [],
    faults: [],
  };
}

export class SandboxState {
  readonly orgs = new Map<number, Org>();
  private readonly byToken = new Map<string, Org>();
  readonly addresses = new Map<number, AddressRecord>();
  readonly shipments = new Map<number, ShipmentRecord>();
  private seq: Sequences = { org: 0, address: 0, shipment: 0, record: 0 };

  /** A fresh state whose organization 1 answers to `token`. */
  static create(token: string): SandboxState {
    const state = new SandboxState();
    state.createOrg(token);
    return state;
  }

  /** Loads a state file; organization 1 takes `token` (the startup token always names organization 1). */
  static fromFile(file: StateFile, token: string): SandboxState {
    if (file?.version !== 1 || !Array.isArray(file.orgs) || typeof file.seq !== "object" || file.seq === null) {
      throw new Error("not a shipctl sandbox state file (version 1)");
    }
    const state = new SandboxState();
    state.seq = { ...file.seq };
    for (const { addresses, shipments, ...org } of file.orgs) {
      // Files written before these switches existed lack them: their defaults.
      org.createdAtLagMs ??= 0;
      org.listOrder ??= "asc";
      state.orgs.set(org.id, org);
      for (const a of addresses) state.addresses.set(a.id, a);
      for (const s of shipments) {
        // Files written before finalize checked price sessions lack the field: such a price must be renewed.
        s.priceSession ??= null;
        state.shipments.set(s.id, s);
      }
    }
    const first = state.orgs.get(1) ?? newOrg(1, token);
    first.token = token;
    state.orgs.set(1, first);
    state.seq.org = Math.max(state.seq.org, 1);
    for (const org of state.orgs.values()) state.byToken.set(org.token, org);
    return state;
  }

  toFile(): StateFile {
    return {
      version: 1,
      seq: { ...this.seq },
      orgs: [...this.orgs.values()].map((org) => ({
        ...org,
        addresses: org.addressIds.map((id) => this.addresses.get(id)!),
        shipments: org.shipmentIds.map((id) => this.shipments.get(id)!),
      })),
    };
  }

  orgByToken(token: string): Org | undefined {
    return this.byToken.get(token);
  }

  createOrg(token = `sbx_${randomBytes(18).toString("base64url")}`): Org {
    const org = newOrg(++this.seq.org, token);
    this.orgs.set(org.id, org);
    this.byToken.set(token, org);
    return org;
  }

  nextRecordId(): number {
    return ++this.seq.record;
  }

  addAddress(org: Org, make: (id: number) => AddressRecord): AddressRecord {
    const record = make(++this.seq.address);
    this.addresses.set(record.id, record);
    org.addressIds.push(record.id);
    return record;
  }

  /** New shipments, unpriced and last updated when created; a batch gets consecutive ids in request order. */
  addShipments(org: Org, shipments: readonly NewShipment[]): ShipmentRecord[] {
    return shipments.map((fields) => {
      const record: ShipmentRecord = { id: ++this.seq.shipment, orgId: org.id, ...fields, price: null, priceSession: null, updatedAt: fields.createdAt };
      this.shipments.set(record.id, record);
      org.shipmentIds.push(record.id);
      return record;
    });
  }

  address(org: Org, id: number): AddressRecord | undefined {
    const a = this.addresses.get(id);
    return a && a.orgId === org.id ? a : undefined;
  }

  shipment(org: Org, id: number): ShipmentRecord | undefined {
    const s = this.shipments.get(id);
    return s && s.orgId === org.id ? s : undefined;
  }

  /** Empties an organization and puts every switch back to its default; its token and id stay. */
  resetOrg(org: Org): void {
    for (const id of org.addressIds) this.addresses.delete(id);
    for (const id of org.shipmentIds) this.shipments.delete(id);
    Object.assign(org, newOrg(org.id, org.token));
  }
}
