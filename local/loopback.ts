/**
 * Every local listener answers only requests addressed to this machine by name: `Host` must be
 * `127.0.0.1`, `localhost` or `[::1]`, with or without a port. A page on another site that has
 * its name resolve to 127.0.0.1 (DNS rebinding) sends its own name in `Host`, so it is refused
 * before anything behind the listener runs. The port is not compared: a browser always sends the
 * port it connects to, and a loopback proxy in front of a listener (the tests' fault proxies)
 * forwards the name it was called by.
 */
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

/** Whether a request's `Host` names this machine's loopback interface. */
export function isLoopbackHost(host: string | undefined): boolean {
  return host !== undefined && LOOPBACK_HOST.test(host);
}

const REFUSAL = JSON.stringify({
  type: "about:blank",
  title: "Host not allowed",
  status: 403,
  detail: "This local service answers requests for 127.0.0.1, localhost or [::1] only.",
});

/** The 403 a request for another host gets: its body is read and dropped, the connection closed. */
function refuse(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  response.writeHead(403, {
    "Content-Type": "application/problem+json",
    "Content-Length": Buffer.byteLength(REFUSAL),
    Connection: "close",
  });
  response.end(REFUSAL);
}

const guarded = new WeakSet<http.Server>();

/**
 * `server`, answering only requests whose `Host` is a loopback name: any other is refused with
 * 403 before the server's own request handler sees it (guarding a server again changes
 * nothing). Every local listener is guarded so: `serveOnLoopback` guards the services, the
 * gateways, the engines' fronts and s3rver guard themselves.
 */
export function loopbackHostsOnly<S extends http.Server>(server: S): S {
  if (guarded.has(server)) return server;
  guarded.add(server);
  const handlers = server.listeners("request") as RequestListener[];
  server.removeAllListeners("request");
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    if (!isLoopbackHost(request.headers.host)) return refuse(request, response);
    for (const handler of handlers) handler.call(server, request, response);
  });
  return server;
}

/**
 * A listener for an engine that cannot check `Host` itself (DynamoDB Local): requests for a
 * loopback name are passed on, as they came, to the engine's own port on 127.0.0.1, over
 * connections kept open between requests; any other is refused. `close` lets the kept
 * connections go once the server has stopped.
 */
export function loopbackProxy(upstreamPort: number): { server: http.Server; close(): void } {
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((request, response) => {
    const forwarded = http.request(
      {
        host: "127.0.0.1",
        port: upstreamPort,
        method: request.method,
        path: request.url,
        headers: request.headers,
        agent,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on("error", () => {
      if (response.headersSent) return void response.destroy();
      response.writeHead(502, { "Content-Type": "text/plain" }).end("The local engine is not reachable\n");
    });
    request.pipe(forwarded);
  });
  return { server: loopbackHostsOnly(server), close: () => agent.destroy() };
}
