/**
 * POST /v1/verifications: primary adapter (API Gateway proxy event) -> use case
 * `idempotentCreateVerification` (and, for a sync verification by its keys, `awaitDecision`) ->
 * secondary adapters (DynamoDB, S3 presigner, the idempotency records, KMS).
 */
import { CREATE_VERIFICATION_FUNCTION } from "#shared/declarations/functions/create-verification";
import { assertJsonContentType, parseCreateBody, parseIdempotencyKey } from "#shared/http/requests";
import { bodyText, header, resourceUrl } from "#shared/http/responses";
import { routeHandler } from "#shared/http/route-handler";
import { awaitDecision } from "#shared/use-cases/public/await-decision";
import { idempotentCreateVerification } from "#shared/use-cases/public/create-idempotently";
import { clock, functionConfig } from "#shared/wiring/config";
import { idempotency } from "#shared/wiring/idempotency";
import { log } from "#shared/wiring/log";
import { identitySealer } from "#shared/wiring/sealer";
import { documentStore } from "#shared/wiring/stores/documents";
import { requestLog } from "#shared/wiring/stores/requests";
import { verificationStore } from "#shared/wiring/stores/verifications";
import { subjectDigest } from "#shared/wiring/subject-digest";

const config = functionConfig(CREATE_VERIFICATION_FUNCTION);
const requests = requestLog(config);
const deps = {
  verifications: verificationStore(config, undefined, requests),
  documents: documentStore(config),
  idempotency: idempotency(config),
  sealer: identitySealer(config),
  subjects: subjectDigest(config),
  clock,
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  retentionDays: Number(config.setting("VERIFICATION_RETENTION_DAYS")),
};

export const handler = routeHandler({ log, requests, clock }, async (event, caller, context, logged) => {
  // Every check runs before the idempotent section, so a refused request is never stored.
  assertJsonContentType(header(event, "Content-Type"));
  const text = bodyText(event);
  const idempotencyKey = parseIdempotencyKey(header(event, "Idempotency-Key"));
  const request = parseCreateBody(text);
  const { resource, replayed } = await idempotentCreateVerification(
    deps,
    // The verification's creation carries the request's record: created is answered 201.
    { appId: caller.appId, environment: caller.environment, idempotencyKey, request, logged: logged.answering(201) },
    context,
  );
  // A replay answers the first answer; only the first request waits for a sync decision.
  const answer = replayed ? resource : await awaitDecision(deps, resource);
  return {
    status: 201,
    body: answer,
    headers: {
      Location: resourceUrl(event, answer.verification_id),
      ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
    },
  };
});
