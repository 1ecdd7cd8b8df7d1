import type { FunctionDeclaration } from "../function-definition.ts";

export const EDEVLET_SIMULATOR_FUNCTION = {
  name: "edevlet-simulator",
  entry: "functions/edevlet-simulator.ts",
  settings: ["SIMULATOR_DOCUMENTS", "SIMULATOR_KEY", "SIMULATOR_KEY_ARN", "SIMULATOR_LATENCY_MS"],
  // A slow answer is held past the adapter's 15 s budget.
  timeoutSeconds: 25,
  access: { tables: {}, uploads: [], simulator: true },
  // e-Devlet's barcode verification as the sandbox's issuer, holding the published test certificates.
  deployedIn: ["sandbox"],
  /** Its function URL (the sandbox's issuer). */
  trigger: "function-url",
} as const satisfies FunctionDeclaration;
