// The payment methods a sandbox's checkout can be set to meet (PUT /_sandbox/payment). Apart from sandbox-control.ts,
// which loads zod and undici, so the `sandbox payment` wiring (built for every --help and every TAB completion) names
// them without loading either.
export const PAYMENT_STATES = ["valid", "none", "declining", "failing"] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];
