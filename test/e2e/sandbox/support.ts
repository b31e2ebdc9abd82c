// Shared by the sandbox contract tests: a raw HTTP client (undici, nothing of shipctl's own client, so the tests check
// the wire), valid payloads to vary one field at a time, and multipart bodies built byte by byte.
import { randomBytes } from "node:crypto";
import { request } from "undici";
import type { Address, Shipment } from "../../../src/contract/index.js";

export interface Target {
  url: string;
  token: string;
}

export interface Sent {
  /** A JSON value to send with Content-Type: application/json. */
  json?: unknown;
  /** A raw body (its Content-Type goes in headers). */
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Replaces the bearer token; null sends no Authorization header. */
  token?: string | null;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body, or undefined when it was empty or not JSON. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever shape the endpoint answers
}

export async function send(target: Target, method: string, path: string, sent: Sent = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: "application/json" };
  const token = sent.token === undefined ? target.token : sent.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | Buffer | undefined = sent.body;
  if (sent.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(sent.json);
  }
  Object.assign(headers, sent.headers);
  const res = await request(`${target.url}${path}`, { method: method as "GET", headers, body });
  const text = await res.body.text();
  let parsed: unknown;
  const type = String(res.headers["content-type"] ?? "");
  if (text && type.startsWith("application/json")) parsed = JSON.parse(text);
  return { status: res.statusCode, headers: res.headers, text, body: parsed };
}

export function address(overrides: Partial<Record<keyof Address, unknown>> = {}): Address {
  return {
    name: "Ada Lovelace",
    email: "ada@example.com",
    phone: "+12065550100",
    line_1: "400 Broad Street",
    city: "Seattle",
    region: "WA",
    post_code: "98109",
    country: 1,
    ...overrides,
  } as Address;
}

export function shipment(overrides: Partial<Record<keyof Shipment, unknown>> = {}): Shipment {
  return {
    title: "Blue Vase",
    value: 1000,
    length: 20,
    height: 16,
    depth: 2,
    service: 1,
    fulfillment_address: address(),
    destination_address: address({ name: "Grace Hopper", line_1: "1 Museum Road" }),
    ...overrides,
  } as Shipment;
}

/** Creates shipments and returns their ids. */
export async function createShipments(target: Target, count: number, overrides: Partial<Record<keyof Shipment, unknown>> = {}): Promise<number[]> {
  const ids: number[] = [];
  for (let done = 0; done < count; done += 10) {
    const n = Math.min(10, count - done);
    const items = Array.from({ length: n }, (_, i) => shipment({ title: `Piece ${done + i + 1}`, ...overrides }));
    const r = await send(target, "POST", "/api/v1/shipments", { json: { shipments: items } });
    if (r.status !== 201) throw new Error(`creating shipments answered ${r.status}: ${r.text}`);
    ids.push(...(r.body.shipments as Array<{ id: number }>).map((s) => s.id));
  }
  return ids;
}

export const text = (n: number, ch = "a"): string => ch.repeat(n);

/** An email of exactly n characters (n >= 6). */
export function emailOfLength(n: number): string {
  const domain = "@x.io";
  return `${"e".repeat(n - domain.length)}${domain}`;
}

/** An E.164 phone of exactly n characters ("+" and n-1 digits; E.164 allows 15 digits at most). */
export function phoneOfLength(n: number): string {
  return `+1${"2".repeat(n - 2)}`;
}

const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Bytes that start like a JPEG (the sandbox judges by magic number only), exactly `size` long. */
export function jpeg(size = 2048): Buffer {
  return Buffer.concat([JPEG_MAGIC, randomBytes(Math.max(0, size - JPEG_MAGIC.length))]).subarray(0, size);
}

export function png(size = 2048): Buffer {
  return Buffer.concat([PNG_MAGIC, randomBytes(Math.max(0, size - PNG_MAGIC.length))]).subarray(0, size);
}

export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----sandboxtest${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ""}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ""}\r\n`;
    chunks.push(Buffer.from(head), Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export const SIDES = ["front", "back", "top", "bottom", "left", "right"] as const;

/** A complete, valid set: 6 box[] then 6 art[] photos, in side order. */
export function reportParts(photo: (group: string, side: string) => Buffer = () => jpeg()): Part[] {
  return ["box", "art"].flatMap((group) =>
    SIDES.map((side) => ({ name: `${group}[]`, filename: `${group}-${side}.jpg`, contentType: "image/jpeg", data: photo(group, side) })),
  );
}

export async function postReport(target: Target, shipmentId: number, set: number | string, parts: Part[]): Promise<Answer> {
  const { body, contentType } = multipart(parts);
  return send(target, "POST", `/api/v1/reports/${shipmentId}/${set}`, { body, headers: { "content-type": contentType } });
}
