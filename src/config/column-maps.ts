// Column mappings a profile keeps, one per header shape: a sheet exported the same way every month is read the same
// way without --map. The shape is the header's normalised names in order (csv/column-map.ts headerShape), so another
// sheet with other columns never picks up a mapping meant for this one.
import type { ConfigStore } from "./store.js";
import { profileOf } from "./profile-name.js";
import type { StoredColumnMap } from "./schema.js";

type Entries = StoredColumnMap["entries"];

const sameShape = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((h, i) => h === b[i]);

/** The mapping saved for this header shape in the profile, if any. */
export function savedColumnMap(store: ConfigStore, profile: string, shape: readonly string[]): Entries | undefined {
  return profileOf(store.read(), profile)?.columnMaps?.find((m) => sameShape(m.headers, shape))?.entries;
}

/** Saves (or replaces) the mapping for this header shape. */
export async function saveColumnMap(store: ConfigStore, profile: string, shape: readonly string[], entries: Readonly<Entries>): Promise<void> {
  await store.update((data) => {
    const current = profileOf(data, profile) ?? {};
    const others = (current.columnMaps ?? []).filter((m) => !sameShape(m.headers, shape));
    data.profiles[profile] = { ...current, columnMaps: [...others, { headers: [...shape], entries: entries.map((e) => ({ ...e })) }] };
  });
}

/** Forgets the mapping for this header shape; false when there was none. */
export async function forgetColumnMap(store: ConfigStore, profile: string, shape: readonly string[]): Promise<boolean> {
  let found = false;
  await store.update((data) => {
    const current = profileOf(data, profile);
    if (!current?.columnMaps) return;
    const kept = current.columnMaps.filter((m) => !sameShape(m.headers, shape));
    found = kept.length < current.columnMaps.length;
    data.profiles[profile] = { ...current, columnMaps: kept };
  });
  return found;
}
