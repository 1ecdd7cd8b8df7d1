import path from "node:path";
import { FUNCTIONS } from "#shared/routes";
import type { GatewayOptions } from "./gateway.ts";

/**
 * The deployed handler modules themselves, loaded after the process environment names
 * the local engines (each module reads its settings when it loads, as on a cold start).
 */
export async function loadHandlers(): Promise<GatewayOptions["handlers"]> {
  const root = path.resolve(__dirname, "..");
  const entries = await Promise.all(
    Object.entries(FUNCTIONS).map(async ([name, definition]) => {
      const module = (await import(path.join(root, definition.entry))) as { handler: unknown };
      return [name, module.handler] as const;
    }),
  );
  return Object.fromEntries(entries) as GatewayOptions["handlers"];
}
