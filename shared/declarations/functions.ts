import { BACKOFFICE_FUNCTIONS } from "./backoffice-api.ts";
import type { FunctionDefinition } from "./function-definition.ts";
import { ASK_ISSUER_FUNCTION } from "./functions/ask-issuer.ts";
import { AUTHORIZER_FUNCTION } from "./functions/authorizer.ts";
import { DELIVER_WEBHOOKS_FUNCTION } from "./functions/deliver-webhooks.ts";
import { EDEVLET_SIMULATOR_FUNCTION } from "./functions/edevlet-simulator.ts";
import { ON_VERIFICATION_CHANGE_FUNCTION } from "./functions/on-verification-change.ts";
import { PORTAL_AUTHORIZER_FUNCTION } from "./functions/portal-authorizer.ts";
import { SEAL_AUDIT_FUNCTION } from "./functions/seal-audit.ts";
import { STAFF_AUTHORIZER_FUNCTION } from "./functions/staff-authorizer.ts";
import { TICK_FUNCTION } from "./functions/tick.ts";
import { PORTAL_FUNCTIONS } from "./portal-api.ts";
import { PUBLIC_API_FUNCTIONS } from "./public-api.ts";

/**
 * Every function, each declared once in `functions/<name>.ts`: the stack, the local runtime, the
 * OpenAPI documents and the tests read them here; a function's own bundle imports its own
 * declaration and never this list. A function behind an API is listed with its API's routes
 * (`public-api.ts`, `backoffice-api.ts`, `portal-api.ts`); the rest below.
 */
export const DECLARED_FUNCTIONS = [
  AUTHORIZER_FUNCTION,
  ...PUBLIC_API_FUNCTIONS,
  // The change stream's reaction, the issuer queue's reader, the delivery queue's, the schedules,
  // and the sandbox's e-Devlet.
  ON_VERIFICATION_CHANGE_FUNCTION,
  ASK_ISSUER_FUNCTION,
  DELIVER_WEBHOOKS_FUNCTION,
  TICK_FUNCTION,
  SEAL_AUDIT_FUNCTION,
  EDEVLET_SIMULATOR_FUNCTION,
  STAFF_AUTHORIZER_FUNCTION,
  ...BACKOFFICE_FUNCTIONS,
  PORTAL_AUTHORIZER_FUNCTION,
  ...PORTAL_FUNCTIONS,
] as const;

export type DeclaredFunction = (typeof DECLARED_FUNCTIONS)[number];
export type FunctionName = DeclaredFunction["name"];

/** Every function's definition, by its name. */
export const FUNCTIONS: Record<FunctionName, FunctionDefinition> = byName(DECLARED_FUNCTIONS);

function byName<D extends { name: string }>(declarations: readonly D[]): Record<D["name"], D> {
  const named = {} as Record<D["name"], D>;
  for (const declaration of declarations) named[declaration.name as D["name"]] = declaration;
  return named;
}
