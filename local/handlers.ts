import path from "node:path";
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  DynamoDBBatchResponse,
  DynamoDBStreamEvent,
  SQSEvent,
} from "aws-lambda";
import type { Trigger } from "#shared/declarations/function-definition";
import { type DeclaredFunction, FUNCTIONS } from "#shared/declarations/functions";
import type { AuthorizerHandler, ProxyHandler, TokenAuthorizerHandler } from "./gateway.ts";

/** The handler of a function its trigger calls, typed by the event the trigger sends. */
interface TriggeredHandlers {
  /** The verifications table's change stream. */
  stream: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;
  queue: (event: SQSEvent) => Promise<void>;
  /** The tick's schedule sends `canary` every 15 minutes; the sealer's sends nothing. */
  schedule: (event?: { canary?: boolean }) => Promise<unknown>;
  /** Behind a function URL: e-Devlet's barcode verification, as the sandbox's issuer. */
  "function-url": (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;
}

/** A function's handler, typed by what its declaration says calls it. */
type HandlerOf<D> = D extends { routes: unknown }
  ? ProxyHandler
  : D extends { authorizer: { type: "REQUEST" } }
    ? AuthorizerHandler
    : D extends { authorizer: { type: "TOKEN" } }
      ? TokenAuthorizerHandler
      : D extends { trigger: infer T extends Trigger }
        ? TriggeredHandlers[T]
        : never;

/** Every function's handler, by its name. */
export type Handlers = { [D in DeclaredFunction as D["name"]]: HandlerOf<D> };

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
