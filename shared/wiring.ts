/**
 * Which adapter stands behind which port, built from a function's declared settings. The one
 * place that constructs adapters: a handler asks for what its use case needs. Clients are made
 * once per process, on first use, and shared by every function in it (the local runtime runs
 * them all in one).
 */
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { createDynamoClients, createS3Client } from "./adapters/aws-clients.ts";
import { libraryDocumentReader } from "./adapters/document-reader.ts";
import { DynamoDbAppStore } from "./adapters/dynamodb-app-store.ts";
import { DynamoDbEventStore } from "./adapters/dynamodb-event-store.ts";
import { DynamoDbVerificationStore } from "./adapters/dynamodb-verification-store.ts";
import { powertoolsLog } from "./adapters/logger.ts";
import { PowertoolsIdempotency } from "./adapters/powertools-idempotency.ts";
import { S3DocumentStore } from "./adapters/s3-document-store.ts";
import { sandboxAuthority } from "./adapters/sandbox-authority.ts";
import { sealerWithKey } from "./adapters/sealer.ts";
import { secretString } from "./adapters/sealing-key.ts";
import { systemClock } from "./adapters/system-clock.ts";
import { fetchWebhookSender } from "./adapters/webhook-sender.ts";
import { FUNCTIONS, type FunctionName } from "./declarations/functions.ts";
import { readSettings, type SettingName } from "./declarations/settings.ts";
import type { Environment } from "./domain/environments.ts";
import { IDEMPOTENCY_SECONDS } from "./domain/new-verification.ts";

let dynamo: ReturnType<typeof createDynamoClients> | undefined;
let s3: ReturnType<typeof createS3Client> | undefined;
let sealer: ReturnType<typeof sealerWithKey> | undefined;

const endpoints = () => readSettings(["DYNAMODB_ENDPOINT", "S3_ENDPOINT"]);
const dynamoClients = () => {
  dynamo ??= createDynamoClients(endpoints().DYNAMODB_ENDPOINT);
  return dynamo;
};
const s3Client = () => {
  s3 ??= createS3Client(endpoints().S3_ENDPOINT);
  return s3;
};

/** The process's AWS clients, which every function in it uses (the benchmarks count their round trips). */
export function processClients() {
  return { dynamo: dynamoClients(), s3: s3Client() };
}

/**
 * The process's sealer: key material from `SECRETS_KEY` (the local runtime) or from the
 * Secrets Manager secret `SECRETS_KEY_ARN` names (AWS), read at first use.
 */
function processSealer() {
  sealer ??= sealerWithKey(async () => {
    const { SECRETS_KEY, SECRETS_KEY_ARN } = readSettings(["SECRETS_KEY", "SECRETS_KEY_ARN"]);
    if (SECRETS_KEY) return SECRETS_KEY;
    if (!SECRETS_KEY_ARN) throw new Error("Invalid configuration: set SECRETS_KEY or SECRETS_KEY_ARN");
    const material = await secretString(new SecretsManagerClient({}), SECRETS_KEY_ARN);
    if (!material) throw new Error("The secrets key secret has no string value");
    return material;
  });
  return sealer;
}

/**
 * The adapters of function `name`. Its declared settings are read and checked now, so a
 * missing one fails the cold start; an adapter whose setting the function does not declare
 * cannot be built.
 */
export function wire(name: FunctionName) {
  const declared: readonly SettingName[] = FUNCTIONS[name].settings;
  const settings: Partial<Record<SettingName, string>> = readSettings(declared);
  const setting = (key: SettingName): string => {
    const value = settings[key];
    if (!declared.includes(key) || value === undefined) throw new Error(`Function ${name} does not declare ${key}`);
    return value;
  };
  // Checked against the environments when the settings were read.
  const environment = () => setting("ENVIRONMENT") as Environment;
  const adapters = {
    environment,
    clock: systemClock,
    log: powertoolsLog,
    reader: libraryDocumentReader,
    sender: fetchWebhookSender,
    sealer: processSealer,
    apps: () => new DynamoDbAppStore(dynamoClients().doc, setting("APPS_TABLE")),
    verifications: () => new DynamoDbVerificationStore(dynamoClients().doc, setting("VERIFICATIONS_TABLE")),
    events: () => new DynamoDbEventStore(dynamoClients().doc, setting("EVENTS_TABLE")),
    documents: () => new S3DocumentStore(s3Client(), setting("UPLOADS_BUCKET")),
    /** Keyed by the function's name: a fixed prefix keeps records valid across deployments. */
    idempotency: () =>
      new PowertoolsIdempotency(
        new DynamoDBPersistenceLayer({ tableName: setting("IDEMPOTENCY_TABLE"), awsSdkV3Client: dynamoClients().raw }),
        name,
        IDEMPOTENCY_SECONDS,
      ),
    /**
     * The environment's issuing authority. The sandbox's answers by the reference's prefix;
     * production has no issuer integration configured yet, so its verifications end
     * inconclusive with reason authority_check_unavailable.
     */
    authority: () => (environment() === "sandbox" ? sandboxAuthority : undefined),
  };
  return {
    ...adapters,
    /** What taking a verification through its checks needs. */
    processing: () => ({
      verifications: adapters.verifications(),
      documents: adapters.documents(),
      reader: adapters.reader,
      authority: adapters.authority(),
      clock: adapters.clock,
      log: adapters.log,
    }),
    /** What recording and delivering webhook events needs. */
    webhooks: () => ({
      events: adapters.events(),
      apps: adapters.apps(),
      sealer: adapters.sealer(),
      sender: adapters.sender,
      clock: adapters.clock,
      log: adapters.log,
    }),
  };
}
