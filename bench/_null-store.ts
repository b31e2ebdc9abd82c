// The ledger's local store doing nothing, for bench/batch.mjs: every claim granted, every record dropped, no key found.
// A build with it in place of src/ledger/local-store.ts runs every other step of a batch as shipctl does (the input's
// record and its flush before each request included), so its send phase beside shipctl's is what the store costs.
import { LocalStore as FileStore } from "../src/ledger/local-store.js";
import type { Entry, Refused } from "../src/ledger/store.js";

export class LocalStore extends FileStore {
  override async claim(): Promise<Refused[]> {
    return [];
  }

  override async record(): Promise<void> {}

  override async find(): Promise<Entry | undefined> {
    return undefined;
  }

  override async findAll(): Promise<Map<string, Entry>> {
    return new Map();
  }
}
