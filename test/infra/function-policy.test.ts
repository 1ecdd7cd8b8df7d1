/**
 * A function's IAM statements compiled from a declaration with plain ARNs, no stack: what the
 * stack test cannot reach through the shipped declarations (a scan, a declaration that names a
 * table or an index that does not exist).
 */

import { AccountRootPrincipal, ArnPrincipal } from "aws-cdk-lib/aws-iam";
import { describe, expect, it } from "vitest";
import type { FunctionDefinition } from "#shared/declarations/function-definition";
import { VERIFICATIONS_TABLE } from "#shared/declarations/tables";
import {
  functionStatements,
  type PolicyResources,
  SEALING_ACTIONS,
  sealingKeyPolicy,
  sealingKeyUse,
} from "../../infra/function-policy.ts";

const VERIFICATIONS_ARN = "arn:aws:dynamodb:eu-central-1:123456789012:table/verifications";

const resources: PolicyResources = {
  region: "eu-central-1",
  tables: new Map([["VERIFICATIONS_TABLE", { arn: VERIFICATIONS_ARN, definition: VERIFICATIONS_TABLE }]]),
  uploadsBucketArn: "arn:aws:s3:::uploads",
  secretsKeyArn: "arn:aws:secretsmanager:eu-central-1:123456789012:secret:key",
  usagePlanId: "plan",
  deliveryQueueArn: "arn:aws:sqs:eu-central-1:123456789012:deliveries",
  issuerQueueArn: "arn:aws:sqs:eu-central-1:123456789012:lookups",
  portalUserPoolArn: "arn:aws:cognito-idp:eu-central-1:123456789012:userpool/portal",
};

/** A declaration with only `access` of its own. */
function declaring(access: Partial<FunctionDefinition["access"]>): FunctionDefinition {
  return {
    entry: "functions/example.ts",
    settings: [],
    timeoutSeconds: 10,
    access: { tables: {}, uploads: [], ...access },
  };
}

describe("functionStatements", () => {
  it("gives updates held to named attributes a statement of their own, so the reads keep theirs", () => {
    const statements = functionStatements(
      "example",
      declaring({
        tables: { VERIFICATIONS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"] },
        updatedAttributes: { VERIFICATIONS_TABLE: ["seen_at"] },
      }),
      resources,
    );
    expect(statements.map((statement) => statement.toStatementJson())).toEqual([
      { Effect: "Allow", Action: "dynamodb:GetItem", Resource: VERIFICATIONS_ARN },
      {
        Effect: "Allow",
        Action: "dynamodb:UpdateItem",
        Resource: VERIFICATIONS_ARN,
        Condition: {
          "ForAllValues:StringLike": { "dynamodb:Attributes": [VERIFICATIONS_TABLE.partitionKey.name, "seen_at"] },
          StringEqualsIfExists: { "dynamodb:ReturnValues": "NONE" },
        },
      },
    ]);
  });

  it("gives a function that only queries named indexes no statement on the table", () => {
    const statements = functionStatements(
      "example",
      declaring({ tables: { VERIFICATIONS_TABLE: ["dynamodb:Query"] }, queries: { VERIFICATIONS_TABLE: ["byApp"] } }),
      resources,
    );
    expect(statements.map((statement) => statement.toStatementJson())).toEqual([
      {
        Effect: "Allow",
        Action: "dynamodb:Query",
        Resource: `${VERIFICATIONS_ARN}/index/${VERIFICATIONS_TABLE.indexes.byApp.indexName}`,
      },
    ]);
  });

  it("lets a scan reach every index of its table, as a query does", () => {
    const statements = functionStatements(
      "example",
      declaring({ tables: { VERIFICATIONS_TABLE: ["dynamodb:Scan"] } }),
      resources,
    );
    expect(statements.map((statement) => statement.toStatementJson())).toEqual([
      {
        Effect: "Allow",
        Action: "dynamodb:Scan",
        Resource: [
          VERIFICATIONS_ARN,
          ...VERIFICATIONS_TABLE.globalIndexes.map((index) => `${VERIFICATIONS_ARN}/index/${index.indexName}`),
        ],
      },
    ]);
  });

  it("refuses a declaration that names a table the stack does not have", () => {
    expect(() =>
      functionStatements("example", declaring({ tables: { APPS_TABLE: ["dynamodb:GetItem"] } }), resources),
    ).toThrow("example declares access to APPS_TABLE, which is not a table");
  });

  it("refuses named queries of an index the table does not have", () => {
    expect(() =>
      functionStatements(
        "example",
        declaring({
          tables: { VERIFICATIONS_TABLE: ["dynamodb:Query"] },
          // An index of another table: the declaration's type refuses it too.
          queries: { VERIFICATIONS_TABLE: ["keysByApp"] as never },
        }),
        resources,
      ),
    ).toThrow("example queries keysByApp, which is not an index of VERIFICATIONS_TABLE");
  });

  it("grants no use of the sealing key in IAM: only the key's own policy does", () => {
    for (const use of ["encrypt", "decrypt"] as const) {
      const statements = functionStatements("example", declaring({ sealing: use }), resources);
      expect(statements).toEqual([]);
    }
  });
});

describe("the sealing key's policy", () => {
  const ROLE = "arn:aws:iam::123456789012:role/delivering";

  it("lets the account administer the key and put its policy again, but neither seal nor open, and lets no one grant", () => {
    const [administration, grants, ...rest] = sealingKeyPolicy(new AccountRootPrincipal()).toJSON().Statement;
    expect(rest).toEqual([]);
    const actions: string[] = administration.Action;
    expect(administration.Effect).toBe("Allow");
    expect(actions).toEqual(expect.arrayContaining(["kms:Put*", "kms:Get*", "kms:ScheduleKeyDeletion"]));
    expect(actions.filter((action) => /^kms:(\*|Encrypt|Decrypt|ReEncrypt|GenerateDataKey)/.test(action))).toEqual([]);
    expect(grants).toEqual({
      Sid: "NoGrants",
      Effect: "Deny",
      Principal: { AWS: "*" },
      Action: "kms:CreateGrant",
      Resource: "*",
    });
  });

  it("names one role for one use, only with an app id as the encryption context", () => {
    const statement = sealingKeyUse(SEALING_ACTIONS.decrypt, new ArnPrincipal(ROLE), "DecryptByExample");
    expect(statement.toStatementJson()).toEqual({
      Sid: "DecryptByExample",
      Effect: "Allow",
      Principal: { AWS: ROLE },
      Action: "kms:Decrypt",
      Resource: "*",
      Condition: {
        "ForAllValues:StringEquals": { "kms:EncryptionContextKeys": ["app_id"] },
        StringLike: { "kms:EncryptionContext:app_id": "app_*" },
      },
    });
  });
});
