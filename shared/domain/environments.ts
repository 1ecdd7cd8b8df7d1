/** The environments the service runs in: each is its own stack, tables and keys. */
export const ENVIRONMENTS = ["sandbox", "production"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
