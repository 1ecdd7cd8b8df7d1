/**
 * Cognito's wire protocol over node:http: JSON 1.1 (`POST /` with `X-Amz-Target:
 * AWSCognitoIdentityProviderService.<Operation>`), errors as Cognito sends them (HTTP 400, the
 * `__type` in the body and in `x-amzn-errortype`), each pool's JWKS where the verifier fetches
 * it locally, and CORS for the pages allowed to call from a browser (the review console and the
 * portal), which are served from other origins. The operations Cognito authorizes with IAM
 * answer only requests signed (SigV4) with the local credentials; the ones a page calls need none.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { headerSignatureRefusal } from "../sigv4.ts";
import { associateSoftwareToken, getUser, verifySoftwareToken } from "./account.ts";
import { ADMIN_OPERATIONS } from "./admin.ts";
import type { IdentityContext } from "./context.ts";
import { CognitoError } from "./errors.ts";
import { initiateAuth, respondToAuthChallenge } from "./sign-in.ts";

type Operation = (context: IdentityContext, input: unknown) => unknown;

/** The calls a user's page makes: the password, session or token in them is the credential. */
const USER_OPERATIONS: Record<string, Operation> = {
  InitiateAuth: initiateAuth,
  RespondToAuthChallenge: respondToAuthChallenge,
  AssociateSoftwareToken: associateSoftwareToken,
  VerifySoftwareToken: verifySoftwareToken,
  GetUser: getUser,
};

const SIGNED_OPERATIONS: Record<string, Operation> = ADMIN_OPERATIONS;

const TARGET_PREFIX = "AWSCognitoIdentityProviderService.";
const MAX_BODY_BYTES = 1 << 20;

const CORS = {
  "access-control-allow-methods": "POST, GET, OPTIONS",
  // The last two are what the AWS SDK adds in a browser, beside its x-amz-user-agent.
  "access-control-allow-headers":
    "content-type, x-amz-target, x-amz-user-agent, authorization, amz-sdk-invocation-id, amz-sdk-request",
  "access-control-expose-headers": "x-amzn-requestid, x-amzn-errortype",
  "access-control-max-age": "600",
};

/** The CORS headers for a request from `origin`: none unless it is one of the allowed pages. */
function corsFor(allowed: (origin: string) => boolean, origin: string | undefined): Record<string, string> {
  // The answer depends on the Origin, so a cache must not hand one origin's answer to another.
  if (origin === undefined || !allowed(origin)) return { vary: "Origin" };
  return { ...CORS, "access-control-allow-origin": origin, vary: "Origin" };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new CognitoError("SerializationException", "Request body too large.");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function parseBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8") || "{}");
  } catch {
    throw new CognitoError("SerializationException", "Request body is not JSON.");
  }
}

async function answer(context: IdentityContext, request: IncomingMessage): Promise<unknown> {
  const target = String(request.headers["x-amz-target"] ?? "");
  const name = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : "";
  // Own properties only: `constructor` or `toString` name no operation (they would answer with the endpoint's state).
  const signed = Object.hasOwn(SIGNED_OPERATIONS, name) ? SIGNED_OPERATIONS[name] : undefined;
  const operation = signed ?? (Object.hasOwn(USER_OPERATIONS, name) ? USER_OPERATIONS[name] : undefined);
  if (!operation) throw new CognitoError("UnknownOperationException", `Unknown operation ${target}.`);
  const body = await readBody(request);
  if (signed) {
    const refusal = headerSignatureRefusal(
      { method: request.method ?? "POST", url: request.url ?? "/", headers: request.headers },
      body,
      // The target is signed too, so a signature made for one operation serves no other. The
      // clock is the wall clock: the pools' own clock (`now`) may be moved by a test.
      { service: "cognito-idp", credentials: context.adminCredentials, mustSign: ["x-amz-target"], now: Date.now() },
    );
    if (refusal) throw new CognitoError(refusal.type, refusal.message);
  }
  return operation(context, parseBody(body));
}

/** `allowedOrigin` says which pages' origins (`http://127.0.0.1:3004`) may call from a browser. */
export function identityServer(context: IdentityContext, allowedOrigin: (origin: string) => boolean): Server {
  return createServer(async (request, response) => {
    const cors = corsFor(allowedOrigin, request.headers.origin);
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { ...cors, "x-amzn-requestid": randomUUID(), ...headers });
      response.end(body === undefined ? undefined : JSON.stringify(body));
    };
    const { pathname } = new URL(request.url ?? "/", "http://identity");
    if (request.method === "OPTIONS") return send(204);
    const jwksOf = /^\/([^/]+)\/\.well-known\/jwks\.json$/.exec(pathname)?.[1];
    if (request.method === "GET" && jwksOf !== undefined) {
      return context.pools.has(jwksOf)
        ? send(200, context.signer.jwks, { "content-type": "application/json" })
        : send(404, { message: `User pool ${jwksOf} does not exist.` }, { "content-type": "application/json" });
    }
    if (request.method !== "POST" || pathname !== "/") return send(404);
    const json = { "content-type": "application/x-amz-json-1.1" };
    try {
      send(200, await answer(context, request), json);
    } catch (error) {
      if (error instanceof CognitoError) {
        send(400, { __type: error.type, message: error.message }, { ...json, "x-amzn-errortype": error.type });
        return;
      }
      // A fault of this endpoint, not of the call: said on the console, where the runtime's output goes.
      console.error("identity endpoint:", error);
      send(500, { __type: "InternalErrorException", message: "Internal error." }, json);
    }
  });
}
