/**
 * The project's own authority service on this machine: the deployed handler behind a plain
 * HTTP server, as a function URL would call it, on the issuer-lookup contract.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from "aws-lambda";

export type AuthorityHandler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

/** A lookup carries a few identifiers: the server stops reading well past the handler's own limit. */
const MAX_READ_BYTES = 64 * 1024;

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
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_READ_BYTES) chunks.push(chunk);
    });
    request.on("end", () => {
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(",") : (value ?? ""),
        ]),
      );
      const event = functionUrlEvent(
        request.method ?? "GET",
        new URL(request.url ?? "/", "http://authority"),
        headers,
        Buffer.concat(chunks),
      );
      handler(event).then(
        (result) => {
          response.writeHead(result.statusCode ?? 200, result.headers as Record<string, string>);
          response.end(result.body);
        },
        () => {
          response.writeHead(500).end();
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
