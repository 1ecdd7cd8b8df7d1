/**
 * Cognito's wire protocol over node:http: JSON 1.1 (`POST /` with `X-Amz-Target:
 * AWSCognitoIdentityProviderService.<Operation>`), errors as Cognito sends them (HTTP 400, the
 * `__type` in the body and in `x-amzn-errortype`), each pool's JWKS where the verifier fetches
 * it locally, and CORS, since the review console calls from another origin.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { jsonRequestBody } from "../json-body.ts";
import { associateSoftwareToken, getUser, verifySoftwareToken } from "./account.ts";
import { ADMIN_OPERATIONS } from "./admin.ts";
import type { IdentityContext } from "./context.ts";
import { CognitoError } from "./errors.ts";
import { initiateAuth, respondToAuthChallenge } from "./sign-in.ts";

type Operation = (context: IdentityContext, input: unknown) => unknown;

const OPERATIONS: Record<string, Operation> = {
  InitiateAuth: initiateAuth,
  RespondToAuthChallenge: respondToAuthChallenge,
  AssociateSoftwareToken: associateSoftwareToken,
  VerifySoftwareToken: verifySoftwareToken,
  GetUser: getUser,
  ...ADMIN_OPERATIONS,
};

const TARGET_PREFIX = "AWSCognitoIdentityProviderService.";
const MAX_BODY_BYTES = 1 << 20;

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, GET, OPTIONS",
  // The last two are what the AWS SDK adds in a browser, beside its x-amz-user-agent.
  "access-control-allow-headers":
    "content-type, x-amz-target, x-amz-user-agent, authorization, amz-sdk-invocation-id, amz-sdk-request",
  "access-control-expose-headers": "x-amzn-requestid, x-amzn-errortype",
  "access-control-max-age": "600",
};

function readInput(request: IncomingMessage): Promise<unknown> {
  return jsonRequestBody(request, MAX_BODY_BYTES, (reason) =>
    reason === "too_large"
      ? new CognitoError("SerializationException", "Request body too large.")
      : new CognitoError("SerializationException", "Request body is not JSON."),
  );
}

async function answer(context: IdentityContext, request: IncomingMessage): Promise<unknown> {
  const target = String(request.headers["x-amz-target"] ?? "");
  const operation = target.startsWith(TARGET_PREFIX) ? OPERATIONS[target.slice(TARGET_PREFIX.length)] : undefined;
  if (!operation) throw new CognitoError("UnknownOperationException", `Unknown operation ${target}.`);
  return operation(context, await readInput(request));
}

export function identityServer(context: IdentityContext): Server {
  return createServer(async (request, response) => {
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { ...CORS, "x-amzn-requestid": randomUUID(), ...headers });
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
