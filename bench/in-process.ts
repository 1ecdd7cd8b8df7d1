/**
 * The public API in-process: the proxy event the local gateway would build for a request, handed
 * straight to the route's deployed handler, so neither loopback nor the gateway's emulation is in
 * what is timed (the reply's `handlerMs`: from the event to the handler's response). The authorizer
 * runs once per key, as the gateway's cache has it on a warm key.
 */
import { randomUUID } from "node:crypto";
import { APIS } from "#shared/declarations/routes";
import { cachedAuthorizer } from "../local/gateway/authorizer.ts";
import {
  authorizerEvent,
  type GatewayRequest,
  lambdaContext,
  proxyEvent,
  requestFields,
} from "../local/gateway/events.ts";
import { compileRoutes, matchRoute } from "../local/gateway/routes.ts";
import type { Handlers } from "../local/handlers.ts";
import type { Send } from "./customer.ts";

export function inProcess(handlers: Handlers, region: string): Send {
  const api = APIS.public;
  const routes = compileRoutes(api.routes);
  // The gateway's own cache and policy check, so a warm key skips the authorizer as deployed.
  const authorize = cachedAuthorizer(handlers.authorizer, api.authorizer.cacheTtlSeconds);
  return async (method, path, headers, body) => {
    const url = new URL(path, "http://127.0.0.1");
    const matched = matchRoute(routes, method, url.pathname);
    if (!matched) throw new Error(`No public route serves ${method} ${url.pathname}`);
    const request: GatewayRequest = {
      rawHeaders: Object.entries({ Host: "127.0.0.1", ...headers }).flat(),
      headers: { host: "127.0.0.1" },
      httpVersion: "1.1",
      socket: { remoteAddress: "127.0.0.1" },
    };
    const requestId = randomUUID();
    const fields = requestFields(request, { method, url }, matched, requestId);
    const authorization = await authorize(authorizerEvent(fields, region), headers[api.authorizer.identityHeader]);
    if (typeof authorization === "string") throw new Error(`The gateway would answer ${authorization}`);
    const name = matched.route.function;
    const event = proxyEvent(fields, Buffer.from(body ?? ""), authorization);
    const context = lambdaContext(name, requestId);
    const started = performance.now();
    const result = await handlers[name](event, context);
    const handlerMs = performance.now() - started;
    return {
      handlerMs,
      status: result.statusCode,
      headers: new Headers(Object.entries(result.headers ?? {}).map(([key, value]) => [key, String(value)])),
      json: result.body ? (JSON.parse(result.body) as unknown) : undefined,
    };
  };
}
