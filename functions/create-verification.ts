/**
 * POST /v1/verifications: primary adapter (API Gateway proxy event) -> use case
 * `idempotentCreateVerification` -> secondary adapters (DynamoDB, S3 presigner).
 */
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import { dynamoClients, s3Client } from "#shared/clients";
import { readConfig } from "#shared/config";
import { bodyText, header, routeHandler } from "#shared/http";
import { FUNCTIONS } from "#shared/routes";
import { assertBodySize, assertJsonContentType, parseCreateBody, parseIdempotencyKey } from "#shared/schemas";
import { UploadStore } from "#shared/upload-store";
import { idempotentCreateVerification } from "#shared/use-cases/create-idempotently";
import { VerificationStore } from "#shared/verification-store";

const config = readConfig(FUNCTIONS["create-verification"].settings);
const create = idempotentCreateVerification({
  verifications: new VerificationStore(dynamoClients().doc, config.VERIFICATIONS_TABLE),
  uploads: new UploadStore(s3Client(), config.UPLOADS_BUCKET),
  persistence: new DynamoDBPersistenceLayer({
    tableName: config.IDEMPOTENCY_TABLE,
    awsSdkV3Client: dynamoClients().raw,
  }),
});

export const handler = routeHandler(async (event, caller, context) => {
  // Every check runs before the idempotent section, so a refused request is never stored.
  assertJsonContentType(header(event, "Content-Type"));
  const text = bodyText(event);
  assertBodySize(text);
  const idempotencyKey = parseIdempotencyKey(header(event, "Idempotency-Key"));
  const request = parseCreateBody(text);
  const { resource, replayed } = await create(
    { appId: caller.appId, environment: caller.environment, idempotencyKey, request },
    context,
  );
  return {
    status: 201,
    body: resource,
    headers: {
      Location: `/v1/verifications/${resource.verification_id}`,
      ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
    },
  };
});
