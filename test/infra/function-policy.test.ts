/**
 * A function's IAM statements compiled from a declaration with plain ARNs, no stack: what the
 * stack test cannot reach through the shipped declarations (a scan, a declaration that names a
 * table or an index that does not exist).
 */
import { describe, expect, it } from "vitest";
import type { FunctionDefinition } from "#shared/declarations/functions";
import { VERIFICATIONS_TABLE } from "#shared/declarations/tables";
import { functionStatements, type PolicyResources } from "../../infra/function-policy.ts";

const VERIFICATIONS_ARN = "arn:aws:dynamodb:eu-central-1:123456789012:table/verifications";

const resources: PolicyResources = {
  region: "eu-central-1",
  tables: new Map([["VERIFICATIONS_TABLE", { arn: VERIFICATIONS_ARN, definition: VERIFICATIONS_TABLE }]]),
  uploadsBucketArn: "arn:aws:s3:::uploads",
  secretsKeyArn: "arn:aws:secretsmanager:eu-central-1:123456789012:secret:key",
  sealingKeyArn: "arn:aws:kms:eu-central-1:123456789012:key/sealing",
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
});
