import path from "node:path";
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from "aws-lambda";
import { FUNCTIONS, type FunctionName } from "#shared/declarations/functions";
import type { AuthorityHandler } from "./authority.ts";
import type { AuthorizerHandler, ProxyHandler, TokenAuthorizerHandler } from "./gateway.ts";

/** Every function's handler, typed by the event its AWS trigger sends. */
export interface Handlers extends Record<FunctionName, unknown> {
  authorizer: AuthorizerHandler;
  "staff-authorizer": TokenAuthorizerHandler;
  "create-verification": ProxyHandler;
  "confirm-upload": ProxyHandler;
  "get-verification": ProxyHandler;
  "backoffice-console": ProxyHandler;
  "list-reviews": ProxyHandler;
  "claim-review": ProxyHandler;
  "decide-review": ProxyHandler;
  "inspect-verification": ProxyHandler;
  "view-document": ProxyHandler;
  "read-audit": ProxyHandler;
  "on-verification-change": (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;
  tick: () => Promise<unknown>;
  authority: AuthorityHandler;
}

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
