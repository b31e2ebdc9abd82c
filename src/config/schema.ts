// The shape of the config file, checked on every read: it is a file people may edit by hand, and a mistake there
// should be a clear message naming the file and the field, not a crash three calls later.
import * as z from "zod";
import type { CountryEntry, ServiceEntry } from "../contract/index.js";

export const CountryEntrySchema = z.object({
  id: z.number().int().min(1),
  alpha2: z.string().regex(/^[A-Z]{2}$/),
  alpha3: z.string().regex(/^[A-Z]{3}$/),
  name: z.string().min(1),
  aliases: z.array(z.string().min(1)).optional(),
}) satisfies z.ZodType<CountryEntry>;

export const ServiceEntrySchema = z.object({
  id: z.number().int().min(1),
  name: z.string().min(1),
  aliases: z.array(z.string().min(1)).optional(),
}) satisfies z.ZodType<ServiceEntry>;

/** Table entries as stored (mutable copies of the contract's readonly entry types). */
export type StoredCountry = z.infer<typeof CountryEntrySchema>;
export type StoredService = z.infer<typeof ServiceEntrySchema>;

/** Tables a profile keeps for one service (its base URL): they never apply to another. */
export const StoredTablesSchema = z.object({
  baseUrl: z.string(),
  source: z.enum(["sandbox", "imported", "confirmed"]),
  countries: z.array(CountryEntrySchema),
  services: z.array(ServiceEntrySchema),
  /** A sandbox's bound on how long it may still apply a request (ledger/settle-window.ts). */
  applyMaxMs: z.number().int().positive().optional(),
});
export type StoredTables = z.infer<typeof StoredTablesSchema>;

/** One saved column mapping: the header shape it is for (normalised names, in order) and its pairs. */
const StoredColumnMapSchema = z.object({
  headers: z.array(z.string()),
  entries: z.array(z.object({ header: z.string().min(1), column: z.string().min(1) })).min(1),
});
export type StoredColumnMap = z.infer<typeof StoredColumnMapSchema>;

// Loose objects: a newer shipctl may have written keys this one does not know; they are kept, not dropped.
export const StoredProfileSchema = z.looseObject({
  baseUrl: z.string().optional(),
  token: z.string().optional(),
  tables: StoredTablesSchema.optional(),
  /**
   * The service at this base URL answered GET /_sandbox/tables as no sandbox does: commands do not ask it again
   * (a wasted request to a real service each time); `login` and the `config tables` commands do.
   */
  notSandbox: z.object({ baseUrl: z.string(), reason: z.string() }).optional(),
  /** `report upload` removes the GPS position from every photo (as --strip-location) unless --keep-location. */
  stripLocation: z.boolean().optional(),
  /** A PEM file of CA certificates trusted for this profile besides Node's own (`config set caFile`). */
  caFile: z.string().optional(),
  /** Column mappings saved per header shape (`--map`, `shipctl csv map`): a sheet's own names for shipctl's columns. */
  columnMaps: z.array(StoredColumnMapSchema).optional(),
  /** Days back the look before a create reads (shipments/look/look-before-create.ts); 0 turns it off. */
  lookDays: z.number().int().min(0).max(365).optional(),
  /** The organization's ledger: `local`, or a team's PostgreSQL URL without its password (config/ledger-setting.ts). */
  ledger: z.string().optional(),
  /** The organization's name in a shared ledger, the same on every machine of the team (config/ledger-setting.ts). */
  organization: z.string().optional(),
});
export type StoredProfile = z.infer<typeof StoredProfileSchema>;

export const ConfigDataSchema = z.looseObject({
  currentProfile: z.string().optional(),
  profiles: z.record(z.string(), StoredProfileSchema).default({}),
});
export type ConfigData = z.infer<typeof ConfigDataSchema>;
