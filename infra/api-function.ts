import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Duration, Stack, Validations } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { PolicyStatement, Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { IKey } from "aws-cdk-lib/aws-kms";
import {
  ApplicationLogLevel,
  Architecture,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from "aws-cdk-lib/aws-lambda";
import { type BundlingOptions, NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup } from "aws-cdk-lib/aws-logs";
import type { CfnBucket, IBucket } from "aws-cdk-lib/aws-s3";
import type { ISecret } from "aws-cdk-lib/aws-secretsmanager";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { QR_DECODER_WASM_FILE, QR_DECODER_WASM_PACKAGE_PATH } from "#shared/adapters/documents/qr";
import { READER_THREAD_FILE } from "#shared/adapters/documents/reader";
import type { FunctionDefinition } from "#shared/declarations/functions";
import { isOptionalSetting, type SettingName } from "#shared/declarations/settings";
import type { TableDefinition } from "#shared/declarations/tables";
import { documentKey } from "#shared/domain/verification";
import type { EnvironmentConfig } from "./config.ts";

/** The repository root: esbuild resolves `#shared/*` and the lockfile from here. */
export const PROJECT_ROOT = path.resolve(__dirname, "..");

/** Lambda's Node.js runtime; the bundle targets the same version. */
export const RUNTIME = Runtime.NODEJS_24_X;
const ESBUILD_TARGET = "node24";
const MEMORY_MB = 512;

/** How every function is bundled; the benchmark builds its bundles with exactly these. */
export const BUNDLING = {
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  target: ESBUILD_TARGET,
  format: OutputFormat.CJS,
  bundleAwsSDK: true,
  // The ES module builds first: esbuild drops the SDK commands and package parts a function never
  // imports, which CommonJS builds keep whole (a third off most bundles and their init). And
  // package.json's `sideEffects` names the only project files whose loading does something
  // (zod's messages, the reader's thread), so a module none of whose exports a function uses is
  // left out with its schemas, though the wiring imports it.
  mainFields: ["module", "main"],
  forceDockerBundling: false,
} as const satisfies BundlingOptions;

export const SERVICE_NAME = "verification-api";

/** The published test certificates the sandbox's e-Devlet simulator holds, copied into its bundle. */
const SIMULATOR_DOCUMENTS_SOURCE = "docs/test-documents/issuer";
const SIMULATOR_DOCUMENTS_FOLDER = "issuer";

/** The command that copies the simulator's certificates beside its bundle. */
function simulatorDocumentFiles(inputDir: string, outputDir: string): string[] {
  return [
    `cp -R "${path.join(inputDir, SIMULATOR_DOCUMENTS_SOURCE)}" "${path.join(outputDir, SIMULATOR_DOCUMENTS_FOLDER)}"`,
  ];
}

/** The web pages' build script: `buildWeb(outDir)`, also run as `web/build.ts <outDir>`. */
const WEB_BUILD_SCRIPT = "web/build.ts";
/** Where a bundle holds the built pages, so where its function reads them (`WEB_ASSETS`). */
const WEB_ASSETS_FOLDER = "web";

/**
 * The command that builds the web pages into a bundle's folder, for a function that serves
 * them. The build script is TypeScript, so Node runs it with the project's own tsx loader,
 * named by path as the reader's esbuild is: the command runs in a shell, not in this process.
 */
function webAssetFiles(inputDir: string, outputDir: string): string[] {
  const inInput = (file: string) => path.join(inputDir, path.relative(PROJECT_ROOT, file));
  const loader = pathToFileURL(inInput(createRequire(__filename).resolve("tsx"))).href;
  const script = path.join(inputDir, WEB_BUILD_SCRIPT);
  return [`node --import "${loader}" "${script}" "${path.join(outputDir, WEB_ASSETS_FOLDER)}"`];
}

/**
 * The commands that put beside a bundle what its document reader needs: the reader's thread,
 * bundled with the functions' own options (it runs in a worker thread, so its code is a file of
 * its own; see shared/adapters/documents/reader.ts), and the QR decoder's WebAssembly binary,
 * which the thread reads from beside its code. A file rather than bytes inside the bundle:
 * unbundled (tsx, the tests, the local runtime) the same code reads it from its package. A
 * bundle names the thread's file exactly when it holds the reader; the others get nothing.
 */
export function documentReaderFiles(inputDir: string, outputDir: string): string[] {
  const resolve = createRequire(__filename).resolve;
  const inInput = (file: string) => path.join(inputDir, path.relative(PROJECT_ROOT, file));
  const esbuild = inInput(path.join(PROJECT_ROOT, "node_modules", ".bin", "esbuild"));
  const entry = inInput(resolve("#shared/adapters/documents/thread"));
  const wasm = inInput(resolve(QR_DECODER_WASM_PACKAGE_PATH));
  const options = [
    "--bundle",
    "--platform=node",
    `--format=${BUNDLING.format}`,
    `--target=${BUNDLING.target}`,
    `--main-fields=${BUNDLING.mainFields.join(",")}`,
    ...(BUNDLING.minify ? ["--minify"] : []),
    ...(BUNDLING.sourceMap ? ["--sourcemap"] : []),
    `--sources-content=${BUNDLING.sourcesContent}`,
    "--log-level=warning",
    `--outfile="${path.join(outputDir, READER_THREAD_FILE)}"`,
  ];
  const build = `"${esbuild}" "${entry}" ${options.join(" ")}`;
  const copy = `cp "${wasm}" "${path.join(outputDir, QR_DECODER_WASM_FILE)}"`;
  return [`if grep -q "${READER_THREAD_FILE}" "${path.join(outputDir, "index.js")}"; then ${build} && ${copy}; fi`];
}

/**
 * How a function is bundled: the shared options and, after bundling, the files its bundle
 * needs beside it: the simulator's certificates, the web pages of a function that
 * serves them (it reads `WEB_ASSETS`), and the document reader's when the bundle holds it.
 */
function bundlingOf(definition: FunctionDefinition): BundlingOptions {
  return {
    ...BUNDLING,
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (inputDir, outputDir) => [
        ...(definition.access.simulator ? simulatorDocumentFiles(inputDir, outputDir) : []),
        ...(definition.settings.includes("WEB_ASSETS") ? webAssetFiles(inputDir, outputDir) : []),
        ...documentReaderFiles(inputDir, outputDir),
      ],
    },
  };
}

/** Actions that may read a table's indexes as well as the table. */
const INDEX_ACTIONS = new Set(["dynamodb:Query", "dynamodb:Scan"]);

/**
 * Sealing with the KMS key: `encrypt` seals and can open nothing; `decrypt` opens. Either only
 * with an app id as the one encryption context key, so the key serves no other purpose.
 */
export function sealingStatement(use: "encrypt" | "decrypt", keyArn: string): PolicyStatement {
  return new PolicyStatement({
    actions: [use === "encrypt" ? "kms:Encrypt" : "kms:Decrypt"],
    resources: [keyArn],
    conditions: {
      "ForAllValues:StringEquals": { "kms:EncryptionContextKeys": ["app_id"] },
      StringLike: { "kms:EncryptionContext:app_id": "app_*" },
    },
  });
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

/** The deployed resources a function can be given, by the setting that names them. */
export interface FunctionResources {
  environment: EnvironmentConfig;
  tables: ReadonlyMap<SettingName, { table: ITable; definition: TableDefinition }>;
  uploads: IBucket;
  /** The retired key material that sealed webhook secrets before KMS; read only by functions that declare it. */
  secretsKey: ISecret;
  /** The KMS key that seals webhook secrets. */
  sealingKey: IKey;
  /** The public stage's usage plan: each app's own request bucket. */
  usagePlanId: string;
  /** The queue new webhook events wait in for their first attempt. */
  deliveryQueue: IQueue;
  /** The queue every lookup of the issuer waits in. */
  issuerQueue: IQueue;
  /** Which issuer the functions that reach it read (`ISSUER`, e-Devlet's protocol, the retry window, ...). */
  issuer: Partial<Record<SettingName, string>>;
  /** The staff and customer user pools and the web pages' clients of them. */
  pools: {
    staff: { userPoolId: string; clientId: string };
    portal: { userPoolId: string; clientId: string; userPoolArn: string };
  };
}

/**
 * The environment a function reads: the settings it declares, each mapped to its physical
 * value. An optional setting with no value in AWS is left unset (a local engine's endpoint:
 * in AWS the SDK finds the regional one). A required one with no value stops the synth
 * instead of deploying a function that fails at cold start.
 */
export function functionEnvironment(
  settings: readonly SettingName[],
  values: Partial<Record<SettingName, string>>,
): Record<string, string> {
  return Object.fromEntries(
    settings.flatMap((setting) => {
      const value = values[setting];
      if (value !== undefined) return [[setting, value]];
      if (isOptionalSetting(setting)) return [];
      throw new Error(`Setting ${setting} has no value in the deployed stack`);
    }),
  );
}

/**
 * One Lambda from its shared declaration: its own role with only the table, bucket and
 * secret actions it declares, its own log group, and the bundle built with the lockfile's
 * dependencies (the SDK included, so AWS runs the versions the tests ran).
 */
export class ApiFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;

  constructor(
    scope: Construct,
    id: string,
    name: string,
    definition: FunctionDefinition,
    resources: FunctionResources,
  ) {
    super(scope, id);
    const { environment, tables, uploads, secretsKey, sealingKey, usagePlanId, deliveryQueue, issuerQueue, pools } =
      resources;

    this.role = new Role(this, "Role", {
      assumedBy: new ServicePrincipal("lambda.amazonaws.com"),
      description: `${name} (${environment.environment}): its log group and the data it declares`,
    });
    const logGroup = new LogGroup(this, "Logs", {
      retention: environment.logRetention,
      removalPolicy: environment.removalPolicy,
    });
    logGroup.grantWrite(this.role);

    for (const [setting, actions] of Object.entries(definition.access.tables) as [SettingName, readonly string[]][]) {
      const entry = tables.get(setting);
      if (!entry) throw new Error(`${name} declares access to ${setting}, which is not a table`);
      const indexArn = (indexName: string) => `${entry.table.tableArn}/index/${indexName}`;
      const named = definition.access.queries?.[setting as keyof typeof definition.access.tables];
      if (named) {
        // Its queries reach the indexes it names; every other action, the table itself.
        for (const indexName of named) {
          if (!entry.definition.globalIndexes.some((index) => index.indexName === indexName)) {
            throw new Error(`${name} queries ${indexName}, which is not an index of ${setting}`);
          }
        }
        this.role.addToPrincipalPolicy(
          new PolicyStatement({
            actions: actions.filter((action) => INDEX_ACTIONS.has(action)),
            resources: named.map(indexArn),
          }),
        );
        this.role.addToPrincipalPolicy(
          new PolicyStatement({
            actions: actions.filter((action) => !INDEX_ACTIONS.has(action)),
            resources: [entry.table.tableArn],
          }),
        );
        continue;
      }
      const readsIndexes = actions.some((action) => INDEX_ACTIONS.has(action));
      const indexArns = readsIndexes ? entry.definition.globalIndexes.map((index) => indexArn(index.indexName)) : [];
      const leading = definition.access.leadingKeys?.[setting as keyof typeof definition.access.tables];
      this.role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: [...actions],
          resources: [entry.table.tableArn, ...indexArns],
          ...(leading
            ? {
                conditions: {
                  "ForAllValues:StringLike": { "dynamodb:LeadingKeys": leading.map((prefix) => `${prefix}*`) },
                },
              }
            : {}),
        }),
      );
    }
    const documents = `${documentKey("")}*`;
    if (definition.access.uploads.length > 0) {
      this.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: [...definition.access.uploads], resources: [uploads.arnForObjects(documents)] }),
      );
    }

    if (definition.access.secretsKey) secretsKey.grantRead(this.role);
    if (definition.access.sealing) {
      this.role.addToPrincipalPolicy(sealingStatement(definition.access.sealing, sealingKey.keyArn));
    }
    if (definition.access.appLimits) {
      const region = Stack.of(this).region;
      for (const statement of appLimitsStatements(definition.access.appLimits, region, usagePlanId)) {
        this.role.addToPrincipalPolicy(statement);
      }
    }
    // Its reader's rights come with its event source (infra/pipeline.ts).
    if (definition.access.deliveryQueue === "send") {
      this.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ["sqs:SendMessage"], resources: [deliveryQueue.queueArn] }),
      );
    }
    // The reader's own rights come with its event source; it also sends its retries back.
    if (definition.access.issuer) {
      this.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ["sqs:SendMessage"], resources: [issuerQueue.queueArn] }),
      );
    }
    if (definition.access.portalUserAdmin) {
      this.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ["cognito-idp:AdminCreateUser"], resources: [pools.portal.userPoolArn] }),
      );
    }

    const values: Partial<Record<SettingName, string>> = {
      ENVIRONMENT: environment.environment,
      ...resources.issuer,
      SIMULATOR_DOCUMENTS: `/var/task/${SIMULATOR_DOCUMENTS_FOLDER}`,
      UPLOADS_BUCKET: uploads.bucketName,
      VERIFICATION_RETENTION_DAYS: String(environment.recordRetentionDays),
      SECRETS_KEY_ARN: secretsKey.secretArn,
      SEALING_KEY_ID: sealingKey.keyArn,
      USAGE_PLAN_ID: usagePlanId,
      DELIVERY_QUEUE_URL: deliveryQueue.queueUrl,
      ISSUER_QUEUE_URL: issuerQueue.queueUrl,
      STAFF_USER_POOL_ID: pools.staff.userPoolId,
      STAFF_CLIENT_ID: pools.staff.clientId,
      PORTAL_USER_POOL_ID: pools.portal.userPoolId,
      PORTAL_CLIENT_ID: pools.portal.clientId,
      WEB_ASSETS: `/var/task/${WEB_ASSETS_FOLDER}`,
      ...Object.fromEntries([...tables].map(([setting, entry]) => [setting, entry.table.tableName])),
    };

    this.function = new NodejsFunction(this, "Function", {
      description: `${name} (${environment.environment})`,
      entry: path.join(PROJECT_ROOT, definition.entry),
      handler: "handler",
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, "package-lock.json"),
      runtime: RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: MEMORY_MB,
      timeout: Duration.seconds(definition.timeoutSeconds),
      role: this.role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      // Lambda's level wins over Powertools' when both are set, so they are set alike.
      applicationLogLevelV2: ApplicationLogLevel[environment.logLevel],
      systemLogLevelV2: SystemLogLevel.INFO,
      tracing: Tracing.ACTIVE,
      environment: {
        ...functionEnvironment(definition.settings, values),
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_LOG_LEVEL: environment.logLevel,
        // Stack traces point at the TypeScript sources through the bundled source map.
        NODE_OPTIONS: "--enable-source-maps",
      },
      bundling: bundlingOf(definition),
    });

    if (definition.access.uploads.length > 0) {
      Validations.of(this.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(uploads.node.defaultChild as CfnBucket)}.Arn>/${documents}]`,
        reason: "Object actions on the documents/ prefix: one object per verification, keyed by its id",
      });
    }
    Validations.of(this.role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason: "X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions",
    });
  }
}
