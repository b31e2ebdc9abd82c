import { describe, expect, it } from "vitest";
import { readErrorBody } from "../../../src/api/body.js";

describe("readErrorBody", () => {
  it("reads a Laravel validation body", () => {
    const body = readErrorBody(JSON.stringify({ message: "The title field is required.", errors: { "shipments.0.title": ["The title field is required."] } }), "application/json");
    expect(body).toMatchObject({ shape: "laravel", message: "The title field is required.", errors: { "shipments.0.title": ["The title field is required."] } });
  });

  it("reads a plain JSON string", () => {
    expect(readErrorBody('"No valid payment method."', "application/json")).toMatchObject({ shape: "json-string", message: "No valid payment method." });
  });

  it("reads {status, message} and keeps the service's status apart from the HTTP one", () => {
    expect(readErrorBody('{"status":0,"message":"Rate Limited"}', "application/json")).toMatchObject({ shape: "status-message", serviceStatus: 0, message: "Rate Limited" });
  });

  it("reads RFC 9457 problem+json; its status is the HTTP status, not a service code", () => {
    const body = readErrorBody(JSON.stringify({ type: "https://example.com/probs/out-of-credit", title: "Out of credit", detail: "Balance is 30, cost is 50.", status: 403 }), "application/problem+json");
    expect(body).toMatchObject({ shape: "problem", message: "Out of credit: Balance is 30, cost is 50." });
    expect(body.serviceStatus).toBeUndefined();
  });

  it("reads a problem document's errors as RFC 9457's example gives them, {detail, pointer}, into dotted keys", () => {
    const errors = [
      { detail: "must be at least 50", pointer: "#/shipments/3/value" },
      { detail: "is required", pointer: "/shipments/0/fulfillment_address/phone" },
      { detail: "is not E.164", pointer: "#/shipments/0/fulfillment_address/phone" },
      { detail: "no place to put it" },
    ];
    const body = readErrorBody(JSON.stringify({ title: "Unprocessable Content", status: 422, errors }), "application/problem+json");
    expect(body.errors).toEqual({ "shipments.3.value": ["must be at least 50"], "shipments.0.fulfillment_address.phone": ["is required", "is not E.164"] });
  });

  it("recognises a problem document served as plain JSON", () => {
    expect(readErrorBody(JSON.stringify({ title: "Not Found", status: 404 }), "application/json")).toMatchObject({ shape: "problem", message: "Not Found" });
  });

  it("does not repeat a title equal to the detail", () => {
    expect(readErrorBody(JSON.stringify({ title: "Gone", detail: "Gone" }), "application/problem+json").message).toBe("Gone");
  });

  it("reads an HTML page as its title, or its first heading", () => {
    expect(readErrorBody("<html><head><title>\n 503 Service Temporarily Unavailable \n</title></head><body>…</body></html>", "text/html")).toMatchObject({ shape: "html", message: "503 Service Temporarily Unavailable" });
    expect(readErrorBody("<html><body><h1>Server <b>Error</b></h1></body></html>", "text/html").message).toBe("Server Error");
    expect(readErrorBody("<html><body><p>nothing</p></body></html>", "text/html").message).toBeUndefined();
  });

  it("treats whitespace as an empty body", () => {
    expect(readErrorBody("  \r\n", "application/json")).toEqual({ shape: "empty" });
  });

  it("keeps other text short", () => {
    const body = readErrorBody(`upstream connect error ${"z".repeat(400)}`, "text/plain");
    expect(body.shape).toBe("text");
    expect(body.message!.length).toBeLessThanOrEqual(200);
  });

  it("finds a message in other JSON ({error}, {error: {message}}) or none", () => {
    expect(readErrorBody('{"error":"bad key"}', undefined).message).toBe("bad key");
    expect(readErrorBody('{"error":{"message":"deep"}}', undefined).message).toBe("deep");
    for (const text of ["[1,2]", "42"]) {
      const body = readErrorBody(text, undefined);
      expect(body.shape).toBe("json");
      expect(body.message).toBeUndefined();
    }
  });

  it("accepts single-string field errors", () => {
    expect(readErrorBody('{"message":"x","errors":{"name":"too short"}}', undefined).errors).toEqual({ name: ["too short"] });
  });
});
