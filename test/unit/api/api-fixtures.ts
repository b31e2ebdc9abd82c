// What the API tests send and are answered: an address, a shipment, stored shipments and pages of them.

export const ADDRESS = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "+12069536978",
  line_1: "1 Main Street",
  city: "Denver",
  region: "Colorado",
  post_code: "80202",
  country: 1,
};

export const SHIPMENT = {
  title: "Blue Horse",
  value: 1200,
  length: 20,
  height: 16,
  depth: 2,
  service: 1,
  fulfillment_address_id: 1,
  destination_address_id: 2,
};

export function storedShipment(id: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, title: `Piece ${id}`, status: 1, created_at: "2025-01-01 10:00:00", ...extra };
}

export function page(items: unknown[], next: string | null, base: string, current = 1): Record<string, unknown> {
  return {
    data: items,
    links: { first: `${base}?page=1`, last: null, prev: current > 1 ? `${base}?page=${current - 1}` : null, next },
    meta: { current_page: current, from: items.length ? 1 : null, path: base, per_page: 20, to: items.length || null },
  };
}

/** Catches what a promise rejects with (the test fails if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected the call to fail, but it succeeded");
}
