/**
 * A function's IAM policy, compiled from its declaration (`shared/declarations/functions/<name>.ts`)
 * and the ARNs of what it reaches: nothing else, so the declaration is the whole of what a
 * function may do. Plain values in, statements out: no construct, so it is tested as it stands.
 */
import { AnyPrincipal, Effect, type IPrincipal, PolicyDocument, PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { FunctionDefinition, TableSetting } from "#shared/declarations/function-definition";
import { KEY_FAMILIES, type KeyFamily } from "#shared/declarations/key-families";
import type { SettingName } from "#shared/declarations/settings";
import type { TableDefinition } from "#shared/declarations/tables";
import { documentKey } from "#shared/domain/verification";

/** The uploaded documents' keys in the uploads bucket: the one prefix a function's object actions reach. */
export const DOCUMENT_KEYS = `${documentKey("")}*`;

/** Actions that may read a table's indexes as well as the table. */
const INDEX_ACTIONS = new Set(["dynamodb:Query", "dynamodb:Scan"]);

/** The actions that read a Secrets Manager secret's value. */
const SECRET_READING = ["secretsmanager:GetSecretValue", "secretsmanager:DescribeSecret"];

/** The ARNs (or CloudFormation tokens for them) of what a function may be given, and the region it runs in. */
export interface PolicyResources {
  region: string;
  /** Each table by the setting that names it: its ARN and its declaration (for its indexes). */
  tables: ReadonlyMap<SettingName, { arn: string; definition: TableDefinition }>;
  uploadsBucketArn: string;
  /** The retired key material that sealed webhook secrets before KMS. */
  secretsKeyArn: string;
  /** The public stage's usage plan: each app's own request bucket. */
  usagePlanId: string;
  deliveryQueueArn: string;
  issuerQueueArn: string;
  portalUserPoolArn: string;
}

/**
 * The sealing key's administration: everything the account needs to manage, rotate, tag and
 * retire the key, and to put its policy again (so the key can never be orphaned, and KMS's
 * lockout safety check passes), but no use of it: neither Encrypt nor Decrypt is among these.
 * `kms:Create*` also takes in CreateGrant, which the key's policy refuses to every principal.
 */
export const SEALING_KEY_ADMINISTRATION = [
  "kms:Create*",
  "kms:Describe*",
  "kms:Enable*",
  "kms:List*",
  "kms:Put*",
  "kms:Update*",
  "kms:Revoke*",
  "kms:Disable*",
  "kms:Get*",
  "kms:Delete*",
  "kms:TagResource",
  "kms:UntagResource",
  "kms:ScheduleKeyDeletion",
  "kms:CancelKeyDeletion",
] as const;

/** What each use of the sealing key may do: `encrypt` seals and can open nothing; `decrypt` opens. */
export const SEALING_ACTIONS = { encrypt: ["kms:Encrypt"], decrypt: ["kms:Decrypt"] } as const;

/**
 * The sealing key's policy before any role is named in it: the account administers the key
 * and uses it not at all, and no principal may create a grant (a grant would hand the key's use
 * to a principal this policy does not name). A role may use the key only where a statement of
 * `sealingKeyUse` names it: the account's IAM policies grant nothing on this key.
 */
export function sealingKeyPolicy(account: IPrincipal): PolicyDocument {
  return new PolicyDocument({
    statements: [
      new PolicyStatement({
        sid: "KeyAdministration",
        principals: [account],
        actions: [...SEALING_KEY_ADMINISTRATION],
        resources: ["*"],
      }),
      new PolicyStatement({
        sid: "NoGrants",
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ["kms:CreateGrant"],
        resources: ["*"],
      }),
    ],
  });
}

/**
 * A key policy statement letting `principal` take `actions` only with exactly `context`'s keys as
 * the encryption context, each value like its pattern, so the key serves no other purpose. `sid`
 * names the statement, so statements of different roles stay apart.
 */
function contextBoundUse(
  actions: readonly `kms:${string}`[],
  principal: IPrincipal,
  sid: string,
  context: Record<string, string>,
): PolicyStatement {
  return new PolicyStatement({
    sid,
    principals: [principal],
    actions: [...actions],
    resources: ["*"],
    conditions: {
      "ForAllValues:StringEquals": { "kms:EncryptionContextKeys": Object.keys(context) },
      StringLike: Object.fromEntries(
        Object.entries(context).map(([key, pattern]) => [`kms:EncryptionContext:${key}`, pattern]),
      ),
    },
  });
}

/**
 * A statement of the sealing key's policy letting `principal` take `actions` (`SEALING_ACTIONS`,
 * or the operators' declared ones) only with an app id as the one encryption context key.
 */
export function sealingKeyUse(
  actions: readonly `kms:${string}`[],
  principal: IPrincipal,
  sid: string,
): PolicyStatement {
  return contextBoundUse(actions, principal, sid, { app_id: "app_*" });
}

/**
 * What each use of the identity key may do (`identitySealing`): `seal` seals
 * the number sent with a verification by its keys, `open` opens it for the lookup.
 */
export const IDENTITY_SEALING_ACTIONS = { seal: ["kms:Encrypt"], open: ["kms:Decrypt"] } as const;

/**
 * A statement of the identity key's policy letting `principal` take `actions` on identity
 * numbers only: the encryption context names exactly an app and a verification.
 */
export function identitySealingUse(
  actions: readonly `kms:${string}`[],
  principal: IPrincipal,
  sid: string,
): PolicyStatement {
  return contextBoundUse(actions, principal, sid, { app_id: "app_*", verification_id: "ver_*" });
}

/** A statement of the subject key's policy letting `principal` digest identity numbers with it, and nothing else. */
export function subjectKeyUse(principal: IPrincipal, sid: string): PolicyStatement {
  return new PolicyStatement({ sid, principals: [principal], actions: ["kms:GenerateMac"], resources: ["*"] });
}

/** A statement of the audit sealing key's policy letting `principal` sign digests with it, and nothing else. */
export function auditSealingUse(principal: IPrincipal, sid: string): PolicyStatement {
  return new PolicyStatement({ sid, principals: [principal], actions: ["kms:Sign"], resources: ["*"] });
}

/**
 * Keeping apps' request buckets in the usage plan `usagePlanId`: `register` finds or creates an
 * app's API key and adds it to the plan; `sync` also lists the plan's keys. No other key, plan
 * or API of the account.
 */
export function appLimitsStatements(use: "register" | "sync", region: string, usagePlanId: string): PolicyStatement[] {
  const apiKeys = `arn:aws:apigateway:${region}::/apikeys`;
  const planKeys = `arn:aws:apigateway:${region}::/usageplans/${usagePlanId}/keys`;
  return [
    new PolicyStatement({ actions: ["apigateway:POST"], resources: [apiKeys, planKeys] }),
    new PolicyStatement({ actions: ["apigateway:GET"], resources: use === "sync" ? [apiKeys, planKeys] : [apiKeys] }),
  ];
}

/**
 * The statements for one declared table: its queries reach the indexes it names and every other
 * action the table itself; without named queries, the table and (for an action that reads
 * indexes) all its indexes, only for items under its leading keys where it declares them.
 */
function tableStatements(
  name: string,
  definition: FunctionDefinition,
  setting: TableSetting,
  actions: readonly string[],
  resources: PolicyResources,
): PolicyStatement[] {
  const table = resources.tables.get(setting);
  if (!table) throw new Error(`${name} declares access to ${setting}, which is not a table`);
  const indexNames = table.definition.globalIndexes.map((index) => index.indexName);
  const indexArn = (indexName: string) => `${table.arn}/index/${indexName}`;
  const queried: readonly string[] | undefined = definition.access.queries?.[setting];
  if (queried) {
    const named = queried.map((index) => {
      const declared = table.definition.indexes[index];
      if (!declared) throw new Error(`${name} queries ${index}, which is not an index of ${setting}`);
      return declared.indexName;
    });
    const onIndexes = actions.filter((action) => INDEX_ACTIONS.has(action));
    const onTable = actions.filter((action) => !INDEX_ACTIONS.has(action));
    // A function that only queries its indexes gets no statement on the table itself.
    return [
      new PolicyStatement({ actions: onIndexes, resources: named.map(indexArn) }),
      ...(onTable.length > 0 ? [new PolicyStatement({ actions: onTable, resources: [table.arn] })] : []),
    ];
  }
  const readsIndexes = actions.some((action) => INDEX_ACTIONS.has(action));
  const leading = definition.access.leadingKeys?.[setting]?.map((family: KeyFamily) => KEY_FAMILIES[family]);
  const leadingCondition = leading
    ? { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": leading.map((prefix) => `${prefix}*`) } }
    : undefined;
  // Updates limited to named attributes get their own statement: the attribute condition would refuse the reads.
  const attributes = definition.access.updatedAttributes?.[setting];
  const updates: string[] = attributes ? actions.filter((action) => action === "dynamodb:UpdateItem") : [];
  const others = actions.filter((action) => !updates.includes(action));
  return [
    ...(others.length > 0
      ? [
          new PolicyStatement({
            actions: others,
            resources: [table.arn, ...(readsIndexes ? indexNames.map(indexArn) : [])],
            ...(leadingCondition ? { conditions: leadingCondition } : {}),
          }),
        ]
      : []),
    ...(attributes && updates.length > 0
      ? [
          new PolicyStatement({
            actions: updates,
            resources: [table.arn],
            conditions: {
              "ForAllValues:StringLike": {
                ...leadingCondition?.["ForAllValues:StringLike"],
                "dynamodb:Attributes": [table.definition.partitionKey.name, ...attributes],
              },
              StringEqualsIfExists: { "dynamodb:ReturnValues": "NONE" },
            },
          }),
        ]
      : []),
  ];
}

/**
 * Every statement function `name` needs for what `definition` declares, in `resources`: its
 * tables, the documents in the uploads bucket, the retired key material, the usage plan, the queues it sends to and the customer pool's users. Its log group, X-Ray and what its
 * event source reads come with the construct and the event source, not from here. Throws for a
 * table or an index the declaration names that does not exist.
 */
export function functionStatements(
  name: string,
  definition: FunctionDefinition,
  resources: PolicyResources,
): PolicyStatement[] {
  const { access } = definition;
  const allow = (actions: readonly string[], resource: string) =>
    new PolicyStatement({ actions: [...actions], resources: [resource] });
  const statements = (Object.entries(access.tables) as [TableSetting, readonly string[]][]).flatMap(
    ([setting, actions]) => tableStatements(name, definition, setting, actions, resources),
  );
  if (access.uploads.length > 0)
    statements.push(allow(access.uploads, `${resources.uploadsBucketArn}/${DOCUMENT_KEYS}`));
  if (access.secretsKey) statements.push(allow(SECRET_READING, resources.secretsKeyArn));
  // Sealing is granted by the sealing key's own policy (`sealingKeyUse`), which alone decides it.
  if (access.appLimits)
    statements.push(...appLimitsStatements(access.appLimits, resources.region, resources.usagePlanId));
  // A queue's reader gets its reading rights with its event source (infra/pipeline.ts).
  if (access.deliveryQueue === "send") statements.push(allow(["sqs:SendMessage"], resources.deliveryQueueArn));
  // The issuer queue's reader also sends its retries back; a scheduler only sends.
  if (access.issuer) statements.push(allow(["sqs:SendMessage"], resources.issuerQueueArn));
  if (access.portalUserAdmin) statements.push(allow(access.portalUserAdmin, resources.portalUserPoolArn));
  return statements;
}
