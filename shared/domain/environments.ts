/**
 * The environments the service runs in, and where each one's webhooks may go, as every
 * function's settings name it. Kept apart from the address rules (`addresses.ts`) so a function
 * that only reads its settings does not carry the address parser.
 */

/** The environments the service runs in: each is its own stack, tables and keys. */
export const ENVIRONMENTS = ["sandbox", "production"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/**
 * Where an environment's webhooks may go: public addresses only (every deployed stack, and
 * the local runtime playing production), or loopback as well (the local runtime playing
 * sandbox, so a receiver on the developer's own machine gets its events).
 */
export const DESTINATIONS = ["public", "public-or-loopback"] as const;
export type Destinations = (typeof DESTINATIONS)[number];

/** The rule where functions run: loopback only for the local runtime playing sandbox. */
export function destinationsFor(environment: Environment, runtime: "local" | "deployed"): Destinations {
  return runtime === "local" && environment === "sandbox" ? "public-or-loopback" : "public";
}
