export * from "./limits.js";
export * from "./enums.js";
export * from "./tables.js";
export * from "./schemas.js";
export * from "./stored-shipment.js";
export * from "./fields.js";
export * from "./post-codes.js";
