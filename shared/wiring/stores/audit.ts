import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { KMSClient } from "@aws-sdk/client-kms";
import { documentClientOf } from "../../adapters/aws-clients.ts";
import { DynamoDbAuditDigests } from "../../adapters/dynamodb-audit-digests.ts";
import { DynamoDbAuditTrail } from "../../adapters/dynamodb-audit-trail.ts";
import { kmsDigestSigner, kmsDigestVerifier } from "../../adapters/kms-digest-signer.ts";
import type { AuditDigests, DigestSigner, DigestVerifier } from "../../ports/audit-trail.ts";
import { dynamoClients, kmsClient } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/** The audit table `table`, reached through `dynamo`: only ever added to. */
export const auditIn = (dynamo: DynamoDBClient, table: string): DynamoDbAuditTrail =>
  new DynamoDbAuditTrail(documentClientOf(dynamo), table);

/** The function's audit table (`AUDIT_TABLE`). */
export const auditTrail = (config: FunctionConfig): DynamoDbAuditTrail =>
  auditIn(dynamoClients().raw, config.setting("AUDIT_TABLE"));

/** The digests table `table` and the sealing key `keyId`: what the sealer writes and `ops audit verify` reads. */
export function sealingIn(
  dynamo: DynamoDBClient,
  kms: KMSClient,
  table: string,
  keyId: string,
): { digests: AuditDigests; signer: DigestSigner; verifier: DigestVerifier } {
  return {
    digests: new DynamoDbAuditDigests(documentClientOf(dynamo), table),
    signer: kmsDigestSigner(kms, keyId),
    verifier: kmsDigestVerifier(kms, keyId),
  };
}

/** The sealer's digests table (`AUDIT_DIGESTS_TABLE`) and key (`AUDIT_SEALING_KEY_ID`). */
export const auditSealing = (config: FunctionConfig): ReturnType<typeof sealingIn> =>
  sealingIn(
    dynamoClients().raw,
    kmsClient(),
    config.setting("AUDIT_DIGESTS_TABLE"),
    config.setting("AUDIT_SEALING_KEY_ID"),
  );
