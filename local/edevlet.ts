/**
 * The e-Devlet simulator on this machine: the deployed handler behind a plain HTTP server on
 * loopback, called as a function URL calls it (payload 2.0, the cookies apart from the headers,
 * one `Set-Cookie` per cookie it answers with). It counts the lookups in flight, so a test can
 * see how many lookups e-Devlet would meet at once.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { EDEVLET_FORM, EDEVLET_MOBILE, NEGATIVE_ANSWERS } from "#shared/domain/edevlet";
import { serveOnLoopback } from "./engines.ts";
import { readBody } from "./gateway/events.ts";

/** The simulator's handler: the event, and a signal that aborts when the client goes away (a held answer stops waiting). */
export type SimulatorHandler = (
  event: APIGatewayProxyEventV2,
  invocation?: { signal?: AbortSignal },
) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * The lookups the simulator met: a form session counts from its first page to its final answer
 * (the PDF, a negative text, or a `429`/`5xx` that ends the flow), or until it has been idle
 * `SESSION_IDLE_MS`; a mobile request is one lookup while it is answered.
 */
export interface SimulatorStats {
  lookups: number;
  inFlight: number;
  maxInFlight: number;
}

export interface EdevletSimulator {
  url: string;
  stop(): Promise<void>;
  stats(): SimulatorStats;
}

/** A form session nobody continued for this long is no longer in flight. */
export const SESSION_IDLE_MS = 20_000;

interface Lookup {
  /** Requests of it being answered now: a lookup waiting on an answer is never idle. */
  answering: number;
  lastSeen: number;
}

/** The session id in `cookies` (`name=value` pairs, or `Set-Cookie` values). */
function sessionIdOf(cookies: readonly string[]): string | undefined {
  const prefix = `${EDEVLET_FORM.sessionCookie}=`;
  const cookie = cookies.map((value) => value.split(";")[0]?.trim() ?? "").find((pair) => pair.startsWith(prefix));
  return cookie?.slice(prefix.length);
}

/** Whether the answer ends a form session: the document, a negative text, or a `429`/`5xx`. */
function endsTheFlow(result: APIGatewayProxyStructuredResultV2, body: Buffer): boolean {
  const status = result.statusCode ?? 200;
  if (status === 429 || status >= 500) return true;
  const type = String(result.headers?.["content-type"] ?? "");
  if (type.startsWith("application/pdf")) return true;
  const page = body.toString("utf8");
  return type.startsWith("text/html") && Object.values(NEGATIVE_ANSWERS).some((negative) => page.includes(negative));
}

function lookupCounter() {
  const sessions = new Map<string, Lookup>();
  const inFlight = new Set<Lookup>();
  let lookups = 0;
  let maxInFlight = 0;
  const end = (lookup: Lookup) => {
    inFlight.delete(lookup);
    for (const [id, held] of sessions) if (held === lookup) sessions.delete(id);
  };
  const sweep = () => {
    const now = Date.now();
    for (const lookup of [...inFlight]) {
      if (lookup.answering === 0 && now - lookup.lastSeen > SESSION_IDLE_MS) end(lookup);
    }
  };
  return {
    /** The lookup a request belongs to: its session's, or a new one. */
    begin(sessionId: string | undefined): Lookup {
      sweep();
      let lookup = sessionId ? sessions.get(sessionId) : undefined;
      if (!lookup) {
        lookup = { answering: 0, lastSeen: Date.now() };
        lookups += 1;
        inFlight.add(lookup);
        maxInFlight = Math.max(maxInFlight, inFlight.size);
      }
      lookup.answering += 1;
      return lookup;
    },
    /** The request answered: the lookup ends, or goes on in the session the answer set (perhaps a fresh one). */
    answered(lookup: Lookup, sessionId: string | undefined, ended: boolean) {
      lookup.answering -= 1;
      lookup.lastSeen = Date.now();
      if (ended || sessionId === undefined) {
        end(lookup);
        return;
      }
      for (const [id, held] of sessions) if (held === lookup && id !== sessionId) sessions.delete(id);
      sessions.set(sessionId, lookup);
    },
    stats(): SimulatorStats {
      sweep();
      return { lookups, inFlight: inFlight.size, maxInFlight };
    },
  };
}

function functionUrlEvent(request: IncomingMessage, body: Buffer): APIGatewayProxyEventV2 {
  const target = request.url ?? "/";
  const question = target.indexOf("?");
  const rawPath = question < 0 ? target : target.slice(0, question);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name !== "cookie" && value !== undefined) headers[name] = Array.isArray(value) ? value.join(",") : value;
  }
  const cookies = (request.headers.cookie ?? "")
    .split(";")
    .map((pair) => pair.trim())
    .filter(Boolean);
  const method = request.method ?? "GET";
  const now = new Date();
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath,
    rawQueryString: question < 0 ? "" : target.slice(question + 1),
    ...(cookies.length > 0 && { cookies }),
    headers,
    requestContext: {
      accountId: "anonymous",
      apiId: "local-edevlet",
      domainName: headers.host ?? "127.0.0.1",
      domainPrefix: "local-edevlet",
      http: {
        method,
        path: rawPath,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? "127.0.0.1",
        userAgent: headers["user-agent"] ?? "",
      },
      requestId: randomUUID(),
      routeKey: "$default",
      stage: "$default",
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: body.length > 0,
    ...(body.length > 0 && { body: body.toString("base64") }),
  };
}

/** The simulator's handler served on loopback (`port` 0 for any free one). */
export async function startEdevletSimulator(handler: SimulatorHandler, port: number): Promise<EdevletSimulator> {
  const counter = lookupCounter();
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    // Past its payload limit a function URL answers itself; the handler never sees the request.
    if (body === undefined) {
      response.writeHead(413).end();
      return;
    }
    const event = functionUrlEvent(request, body);
    const isForm = event.rawPath === EDEVLET_FORM.start;
    const counted = isForm || event.rawPath === EDEVLET_MOBILE.path;
    const lookup = counted ? counter.begin(isForm ? sessionIdOf(event.cookies ?? []) : undefined) : undefined;
    const gone = new AbortController();
    response.on("close", () => {
      if (!response.writableFinished) gone.abort();
    });
    let result: APIGatewayProxyStructuredResultV2;
    try {
      result = await handler(event, { signal: gone.signal });
    } catch {
      if (lookup) counter.answered(lookup, undefined, true);
      if (!response.destroyed) response.writeHead(500).end();
      return;
    }
    const payload = Buffer.from(result.body ?? "", result.isBase64Encoded ? "base64" : "utf8");
    if (lookup) {
      const session = isForm ? (sessionIdOf(result.cookies ?? []) ?? sessionIdOf(event.cookies ?? [])) : undefined;
      counter.answered(lookup, session, !isForm || endsTheFlow(result, payload));
    }
    if (response.destroyed) return;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
    if (result.cookies && result.cookies.length > 0) headers["set-cookie"] = result.cookies;
    response.writeHead(result.statusCode ?? 200, headers).end(payload);
  });
  const served = await serveOnLoopback(server, port);
  return { ...served, stats: counter.stats };
}
