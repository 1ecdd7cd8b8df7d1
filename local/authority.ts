/**
 * The project's own authority service on this machine: the deployed handler behind a plain
 * HTTP server, as a function URL would call it, on the issuer-lookup contract.
 */
import { createServer, type Server } from "node:http";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { serveOnLoopback } from "./engines.ts";
import { readBody, requestTarget } from "./gateway/events.ts";

export type AuthorityHandler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

function functionUrlEvent(
  method: string,
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
): APIGatewayProxyEventV2 {
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    isBase64Encoded: true,
    body: body.toString("base64"),
    requestContext: { http: { method, path: url.pathname } },
  } as APIGatewayProxyEventV2;
}

export async function startAuthority(
  handler: AuthorityHandler,
  port: number,
): Promise<{ url: string; stop(): Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    // Past its payload limit a function URL answers itself; the handler never sees the request.
    if (body === undefined) {
      response.writeHead(413).end();
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(",") : (value ?? ""),
      ]),
    );
    const { method, url } = requestTarget(request);
    try {
      const result = await handler(functionUrlEvent(method, url, headers, body));
      response.writeHead(result.statusCode ?? 200, result.headers as Record<string, string>);
      response.end(result.body);
    } catch {
      response.writeHead(500).end();
    }
  });
  return serveOnLoopback(server, port);
}
