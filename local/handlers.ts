import path from "node:path";
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  DynamoDBBatchResponse,
  DynamoDBStreamEvent,
  SQSEvent,
} from "aws-lambda";
import { FUNCTIONS, type FunctionName } from "#shared/declarations/functions";
import type { RouteDefinition } from "#shared/declarations/routes";
import type { AuthorizerHandler, ProxyHandler, TokenAuthorizerHandler } from "./gateway.ts";

/** Every function's handler, typed by the event its AWS trigger sends. */
export type Handlers = Record<RouteDefinition["function"], ProxyHandler> & {
  authorizer: AuthorizerHandler;
  "staff-authorizer": TokenAuthorizerHandler;
  "portal-authorizer": TokenAuthorizerHandler;
  "on-verification-change": (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;
  "deliver-webhooks": (event: SQSEvent) => Promise<void>;
  "ask-issuer": (event: SQSEvent) => Promise<void>;
  tick: (event?: { canary?: boolean }) => Promise<unknown>;
  "seal-audit": () => Promise<unknown>;
  /** Behind a function URL: e-Devlet's barcode verification, as the sandbox's issuer. */
  "edevlet-simulator": (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;
};

// Every declared function has a handler type above, and nothing else does.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const everyFunctionTyped: Same<keyof Handlers, FunctionName> = true;
void everyFunctionTyped;

/**
 * The deployed handler modules themselves, loaded after the process environment names
 * the local engines (each module reads its settings when it loads, as on a cold start).
 */
export async function loadHandlers(): Promise<Handlers> {
  const root = path.resolve(__dirname, "..");
  const entries = await Promise.all(
    Object.entries(FUNCTIONS).map(async ([name, definition]) => {
      const module = (await import(path.join(root, definition.entry))) as { handler: unknown };
      return [name, module.handler] as const;
    }),
  );
  return Object.fromEntries(entries) as unknown as Handlers;
}
