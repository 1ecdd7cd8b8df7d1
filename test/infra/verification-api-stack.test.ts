/**
 * The stack of each environment, synthesized as `cdk synth` does (cdk.json's feature flags,
 * the same `defineApp`), checked against the shared declarations and the contract.
 * Bundling is skipped except in the one test that checks the bundles themselves.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { App, type CfnResource } from "aws-cdk-lib";
import { Match, Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { afterEach, describe, expect, it } from "vitest";
import { EDGE_MAX_BODY_BYTES, edgeLimits, MANAGED_RULE_GROUPS } from "#shared/declarations/edge";
import type { FunctionDefinition } from "#shared/declarations/function-definition";
import { FUNCTIONS } from "#shared/declarations/functions";
import {
  AUDIT_TRAIL_BROKEN_METRIC,
  EDEVLET_CANARY_FAILED_METRIC,
  ISSUER_LOOKUPS_METRIC,
  ISSUER_UNAVAILABLE_REVIEWS_METRIC,
  LOOKUP_OUTCOME_DIMENSION,
  metricsNamespace,
  PARKED_EVENTS_METRIC,
  UPLOADS_AFTER_ERASURE_METRIC,
} from "#shared/declarations/metrics";
import { OPERATOR_ACCESS, OPERATOR_SESSION_SECONDS, OPERATOR_TRAIL } from "#shared/declarations/operators";
import { DELIVERY_QUEUE, ISSUER_QUEUE, type QueueDefinition } from "#shared/declarations/queues";
import { APIS, type ApiName, methodsByPath, type RouteDefinition } from "#shared/declarations/routes";
import type { SettingName } from "#shared/declarations/settings";
import { CHANGE_STREAM_FILTER, CHANGE_STREAM_READING } from "#shared/declarations/stream-filter";
import { TABLES } from "#shared/declarations/tables";
import { AUDIT_RETENTION_SECONDS } from "#shared/domain/audit";
import { ENVIRONMENTS, type Environment } from "#shared/domain/environments";
import { LOOKUP_LEASE_SECONDS } from "#shared/domain/issuer";
import { STAFF_GROUPS } from "#shared/domain/staff";
import { problemSchema } from "#shared/http/problem-schema";
import { PROBLEMS } from "#shared/http/problems";
import cdkJson from "../../cdk.json";
import { deploymentTarget, environmentFromContext } from "../../infra/config.ts";
import { defineApp } from "../../infra/define-app.ts";
import { functionEnvironment, SERVICE_NAME } from "../../infra/function-environment.ts";
import { deployedGatewayResponses } from "../../infra/gateway-responses.ts";
import type { VerificationApiStack } from "../../infra/verification-api-stack.ts";

const ACCOUNT = "123456789012";
const REGION = "eu-central-1";

function synth(environment: Environment, options: { bundle?: boolean } = {}) {
  const app = new App({
    context: {
      ...cdkJson.context,
      env: environment,
      account: ACCOUNT,
      region: REGION,
      ...(options.bundle ? {} : { "aws:cdk:bundling-stacks": [] }),
    },
  });
  const stack = defineApp(app, {});
  return { app, stack, template: Template.fromStack(stack) };
}

const built = Object.fromEntries(ENVIRONMENTS.map((environment) => [environment, synth(environment)])) as Record<
  Environment,
  ReturnType<typeof synth>
>;

type Json = Record<string, unknown>;
const allEntries = Object.entries(FUNCTIONS) as [string, FunctionDefinition][];
const apiNames = Object.keys(APIS) as ApiName[];
const routesOf = (name: ApiName): readonly RouteDefinition[] => APIS[name].routes;
const allRoutes = apiNames.flatMap(routesOf);
const authorizerFunctions = new Set<string>(apiNames.map((name) => APIS[name].authorizer.function));
/** Settings that name a local engine or endpoint: optional, and with no value in AWS. */
/** Set only by the local runtime: a deployed function never has them (loopback webhooks above all). */
const LOCAL_ONLY_SETTINGS: readonly SettingName[] = [
  "DYNAMODB_ENDPOINT",
  "S3_ENDPOINT",
  "IDENTITY_ENDPOINT",
  "WEBHOOK_DESTINATIONS",
  "KMS_ENDPOINT",
  "APIGATEWAY_ENDPOINT",
  "SQS_ENDPOINT",
  // The lookup contract's bearer secret and the simulator's key are read from Secrets Manager in AWS.
  "AUTHORITY_SECRET",
  "SIMULATOR_KEY",
  "SIMULATOR_LATENCY_MS",
];
/** What an SQS event source lets its function do with the queue it reads. */
const QUEUE_READING = [
  "sqs:ChangeMessageVisibility",
  "sqs:DeleteMessage",
  "sqs:GetQueueAttributes",
  "sqs:GetQueueUrl",
  "sqs:ReceiveMessage",
];
/** Set on the functions that ask only when the issuer chosen needs them (`-c issuer=`), after the functions are made. */
const CHOSEN_ISSUER_SETTINGS: readonly SettingName[] = [
  "EDEVLET_URL",
  "EDEVLET_MOBILE_URL",
  "AUTHORITY_URL",
  "AUTHORITY_SECRET_ARN",
  "SIMULATOR_KEY_ARN",
];

function logicalId(stack: VerificationApiStack, construct: { node: { defaultChild?: unknown } }): string {
  return stack.getLogicalId(construct.node.defaultChild as CfnResource);
}

function functionId(stack: VerificationApiStack, name: string): string {
  const fn = stack.functions.get(name);
  if (!fn) throw new Error(`no function ${name}`);
  return logicalId(stack, fn);
}

function apiId(stack: VerificationApiStack, name: ApiName): string {
  const api = stack.apis.get(name);
  if (!api) throw new Error(`no API ${name}`);
  return logicalId(stack, api);
}

/** The logical id of the authorizer on `name`'s REST API. */
function authorizerIdOf(template: Template, stack: VerificationApiStack, name: ApiName): string {
  const ids = Object.keys(
    template.findResources("AWS::ApiGateway::Authorizer", { Properties: { RestApiId: { Ref: apiId(stack, name) } } }),
  );
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

function tableId(template: Template, setting: SettingName): string {
  const definition = TABLES.find((table) => table.setting === setting);
  const ids = Object.keys(template.findResources("AWS::DynamoDB::Table")).filter((id) =>
    id.startsWith(`${definition?.id}Table`),
  );
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

/**
 * Statements as sets: one entry per resource, with its actions sorted, so neither the order nor
 * CDK's merging of statements with the same actions (two secrets read alike) matters.
 */
function normalizeStatements(statements: Json[]): string[] {
  const list = (value: unknown) => [value].flat().map((item) => JSON.stringify(item));
  return statements
    .flatMap((statement) =>
      list(statement.Resource).map((resource) =>
        JSON.stringify({ effect: statement.Effect, actions: list(statement.Action).sort(), resource }),
      ),
    )
    .sort();
}

function policyStatementsOfRole(template: Template, roleId: string): Json[] {
  const policies = Object.values(template.findResources("AWS::IAM::Policy")).filter((policy) =>
    JSON.stringify(policy.Properties.Roles).includes(`"${roleId}"`),
  );
  return policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement as Json[]);
}

/** Method -> its "METHOD /path", found by walking the resources up to the API root. */
function wiredRoutes(template: Template): Map<string, Json> {
  const resources = template.findResources("AWS::ApiGateway::Resource");
  const pathOf = (parent: Json): string => {
    if ("Fn::GetAtt" in parent) return "";
    const id = parent.Ref as string;
    const resource = resources[id];
    return `${pathOf(resource?.Properties.ParentId)}/${resource?.Properties.PathPart}`;
  };
  const routes = new Map<string, Json>();
  for (const method of Object.values(template.findResources("AWS::ApiGateway::Method"))) {
    routes.set(`${method.Properties.HttpMethod} ${pathOf(method.Properties.ResourceId)}`, method.Properties);
  }
  return routes;
}

/** The statements a function's role holds on the tables it declares: its actions, on the table, its indexes or the ones it names. */
function tableStatements(template: Template, definition: FunctionDefinition): Json[] {
  const expected: Json[] = [];
  for (const [setting, actions] of Object.entries(definition.access.tables) as [SettingName, string[]][]) {
    const id = tableId(template, setting);
    const table = TABLES.find((candidate) => candidate.setting === setting);
    const indexArn = (indexName: string) => ({
      "Fn::Join": ["", [{ "Fn::GetAtt": [id, "Arn"] }, `/index/${indexName}`]],
    });
    const named = (definition.access.queries as Partial<Record<SettingName, readonly string[]>> | undefined)?.[
      setting
    ]?.map((index) => table?.indexes[index]?.indexName ?? `${index}, not an index of ${setting}`);
    if (named) {
      // Queries reach the named indexes only; the other actions, the table only.
      expected.push({ Effect: "Allow", Action: ["dynamodb:Query"], Resource: named.map(indexArn) });
      // A function that only queries its indexes gets no statement on the table itself.
      const onTable = actions.filter((action) => action !== "dynamodb:Query");
      if (onTable.length > 0) {
        expected.push({ Effect: "Allow", Action: onTable, Resource: { "Fn::GetAtt": [id, "Arn"] } });
      }
      continue;
    }
    const indexes = actions.includes("dynamodb:Query")
      ? (table?.globalIndexes ?? []).map((index) => indexArn(index.indexName))
      : [];
    // Updates limited to named attributes stand in a statement of their own.
    const attributes = definition.access.updatedAttributes as Partial<Record<SettingName, unknown>> | undefined;
    const limited = attributes?.[setting] ? ["dynamodb:UpdateItem"] : [];
    const others = actions.filter((action) => !limited.includes(action));
    if (others.length > 0) {
      expected.push({ Effect: "Allow", Action: others, Resource: [{ "Fn::GetAtt": [id, "Arn"] }, ...indexes] });
    }
    for (const action of limited.filter((candidate) => actions.includes(candidate))) {
      expected.push({ Effect: "Allow", Action: [action], Resource: { "Fn::GetAtt": [id, "Arn"] } });
    }
  }
  return expected;
}

/** The statements a function's role holds for the bucket, the secrets, the usage plan, the portal pool and the queues it declares. */
function grantStatements(stack: VerificationApiStack, template: Template, definition: FunctionDefinition): Json[] {
  const expected: Json[] = [];
  if (definition.access.uploads.length > 0) {
    expected.push({
      Effect: "Allow",
      Action: definition.access.uploads,
      Resource: { "Fn::Join": ["", [{ "Fn::GetAtt": [logicalId(stack, bucket(stack)), "Arn"] }, "/documents/*"]] },
    });
  }
  if (definition.access.secretsKey) {
    expected.push({
      Effect: "Allow",
      Action: ["secretsmanager:DescribeSecret", "secretsmanager:GetSecretValue"],
      Resource: { Ref: secretId(template) },
    });
  }
  // Sealing is granted in the sealing key's own policy, not here (see the sealing key's test).
  if (definition.access.appLimits) {
    const planKeys = {
      "Fn::Join": ["", [`arn:aws:apigateway:${stack.region}::/usageplans/`, { Ref: usagePlanId(template) }, "/keys"]],
    };
    expected.push(
      {
        Effect: "Allow",
        Action: "apigateway:POST",
        Resource: [`arn:aws:apigateway:${stack.region}::/apikeys`, planKeys],
      },
      { Effect: "Allow", Action: "apigateway:GET", Resource: `arn:aws:apigateway:${stack.region}::/apikeys` },
    );
  }
  if (definition.access.portalUserAdmin) {
    const actions = definition.access.portalUserAdmin;
    expected.push({
      Effect: "Allow",
      Action: actions.length === 1 ? actions[0] : [...actions],
      Resource: { "Fn::GetAtt": [portalPoolId(template), "Arn"] },
    });
  }
  if (definition.access.simulator) {
    expected.push({
      Effect: "Allow",
      Action: ["secretsmanager:DescribeSecret", "secretsmanager:GetSecretValue"],
      Resource: { Ref: secretIdStartingWith(template, "SimulatorKey") },
    });
  }
  const issuerQueueArn = { "Fn::GetAtt": [queueIdStartingWith(template, "IssuerLookupsQueue"), "Arn"] };
  if (definition.access.issuer === "schedule") {
    expected.push({ Effect: "Allow", Action: "sqs:SendMessage", Resource: issuerQueueArn });
  }
  if (definition.access.issuer === "ask") {
    // Its own retries, and from its event source taking, hiding and deleting the queue's messages.
    expected.push({ Effect: "Allow", Action: [...QUEUE_READING, "sqs:SendMessage"], Resource: issuerQueueArn });
  }
  const deliveryQueueArn = { "Fn::GetAtt": [queueIdStartingWith(template, "DeliveriesQueue"), "Arn"] };
  if (definition.access.deliveryQueue === "send") {
    expected.push({ Effect: "Allow", Action: "sqs:SendMessage", Resource: deliveryQueueArn });
  }
  if (definition.access.deliveryQueue === "receive") {
    // Its event source adds taking, hiding and deleting the queue's messages.
    expected.push({ Effect: "Allow", Action: QUEUE_READING, Resource: deliveryQueueArn });
  }
  return expected;
}

/** The statements of `name`'s role, in order: its log group, X-Ray, then what it declares (and, for the stream's consumer, what its event source adds). */
function expectedStatements(
  stack: VerificationApiStack,
  template: Template,
  [name, definition]: [string, FunctionDefinition],
  logGroupId: string,
): Json[] {
  const expected: Json[] = [
    {
      Effect: "Allow",
      Action: ["logs:CreateLogStream", "logs:PutLogEvents"],
      Resource: { "Fn::GetAtt": [logGroupId, "Arn"] },
    },
    { Effect: "Allow", Action: ["xray:PutTelemetryRecords", "xray:PutTraceSegments"], Resource: "*" },
    ...tableStatements(template, definition),
    ...grantStatements(stack, template, definition),
  ];
  if (name === "on-verification-change") {
    // The stream event source adds reading the stream and sending failures to its queue.
    const queueId = queueIdStartingWith(template, "PipelineChangeFailures");
    expected[1] = {
      Effect: "Allow",
      Action: ["dynamodb:ListStreams", "xray:PutTelemetryRecords", "xray:PutTraceSegments"],
      Resource: "*",
    };
    expected.push(
      {
        Effect: "Allow",
        Action: ["dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator"],
        Resource: { "Fn::GetAtt": [tableId(template, "VERIFICATIONS_TABLE"), "StreamArn"] },
      },
      {
        Effect: "Allow",
        Action: ["sqs:GetQueueAttributes", "sqs:GetQueueUrl", "sqs:SendMessage"],
        Resource: { "Fn::GetAtt": [queueId, "Arn"] },
      },
    );
  }
  return expected;
}

describe.each(ENVIRONMENTS)("VerificationApi-%s", (environment) => {
  const { stack, template } = built[environment];
  const retained = environment === "production";
  // The functions this environment deploys; the e-Devlet simulator is the sandbox's own.
  const entries = allEntries.filter(([, definition]) => definition.deployedIn?.includes(environment) ?? true);
  // By default the sandbox asks its own e-Devlet simulator, production e-Devlet itself at its own URLs.
  const asksSimulator = environment === "sandbox";

  it("is named after its environment and passes cdk-nag's AwsSolutions pack with every finding acknowledged", () => {
    expect(stack.stackName).toBe(`VerificationApi-${environment}`);
    expect(stack.account).toBe(ACCOUNT);
    expect(stack.region).toBe(REGION);
    const report = new AwsSolutionsChecks().validateScope(stack);
    expect(report.violations.map((violation) => violation.ruleName)).toEqual([]);
    expect(report.success).toBe(true);
  });

  it("builds one REST API per declared API, each with exactly its routes, behind its own authorizer", () => {
    template.resourceCountIs("AWS::ApiGateway::RestApi", apiNames.length);
    const routes = wiredRoutes(template);
    const declared = [...routes.keys()].filter((key) => !key.startsWith("ANY "));
    expect(declared.sort()).toEqual(allRoutes.map((route) => `${route.method} ${route.path}`).sort());
    for (const name of apiNames) {
      const authorizerId = authorizerIdOf(template, stack, name);
      for (const route of routesOf(name)) {
        const method = routes.get(`${route.method} ${route.path}`);
        expect(method).toMatchObject({
          RestApiId: { Ref: apiId(stack, name) },
          Integration: { Type: "AWS_PROXY", IntegrationHttpMethod: "POST" },
        });
        if (route.authorization === "none") {
          expect(method).toMatchObject({ AuthorizationType: "NONE" });
          expect(method?.AuthorizerId).toBeUndefined();
        } else {
          expect(method).toMatchObject({ AuthorizationType: "CUSTOM", AuthorizerId: { Ref: authorizerId } });
        }
        expect(JSON.stringify(method?.Integration)).toContain(`"${functionId(stack, route.function)}"`);
      }
    }
  });

  it("answers any other method of a declared path 405 with Allow, by itself, and passes every body as sent", () => {
    const routes = wiredRoutes(template);
    const paths = new Map(apiNames.flatMap((name) => [...methodsByPath(routesOf(name))]));
    expect([...routes.keys()].filter((key) => key.startsWith("ANY ")).sort()).toEqual(
      [...paths.keys()].map((path) => `ANY ${path}`).sort(),
    );
    for (const [path, methods] of paths) {
      const method = routes.get(`ANY ${path}`);
      expect(method).toMatchObject({
        AuthorizationType: "NONE",
        Integration: {
          Type: "MOCK",
          PassthroughBehavior: "WHEN_NO_MATCH",
          IntegrationResponses: [
            {
              StatusCode: "405",
              ResponseParameters: {
                "method.response.header.Allow": `'${methods.join(", ")}'`,
                "method.response.header.Content-Type": "'application/problem+json'",
                "method.response.header.Request-Id": "context.requestId",
              },
            },
          ],
        },
        MethodResponses: [{ StatusCode: "405" }],
      });
      const integration = method?.Integration as {
        RequestTemplates?: unknown;
        IntegrationResponses: { ResponseTemplates: Record<string, string> }[];
      };
      expect(integration.RequestTemplates).toBeUndefined();
      const body = JSON.parse(integration.IntegrationResponses[0]?.ResponseTemplates["application/json"] ?? "");
      expect(body).toMatchObject({ status: 405, code: "method_not_allowed", request_id: "$context.requestId" });
    }
    for (const api of Object.values(template.findResources("AWS::ApiGateway::RestApi"))) {
      expect(api.Properties.BinaryMediaTypes).toEqual(["*/*"]);
    }
  });

  it("puts one regional web ACL in front of every API stage: the body limit, per-address and per-key rates, AWS's managed rules", () => {
    const acls = Object.entries(template.findResources("AWS::WAFv2::WebACL"));
    expect(acls).toHaveLength(1);
    const [aclId, acl] = acls[0] as [string, { Properties: Json }];
    const associations = Object.values(template.findResources("AWS::WAFv2::WebACLAssociation")).map(
      (association) => association.Properties,
    );
    const stages = Object.keys(template.findResources("AWS::ApiGateway::Stage"));
    expect(stages).toHaveLength(apiNames.length);
    expect(associations.map((association) => JSON.stringify(association.ResourceArn)).sort()).toEqual(
      stages.map((stage) => expect.stringContaining(stage)),
    );
    for (const association of associations) {
      expect(association.WebACLArn).toEqual({ "Fn::GetAtt": [aclId, "Arn"] });
    }
    const limits = edgeLimits(environment);
    const rules = acl.Properties.Rules as Json[];
    expect(acl.Properties).toMatchObject({ Scope: "REGIONAL", DefaultAction: { Allow: {} } });
    expect(rules.map((rule) => rule.Name)).toEqual([
      "body-size",
      "rate-per-source-ip",
      "rate-per-api-key",
      ...MANAGED_RULE_GROUPS.map((group) => group.name),
    ]);
    expect(rules[0]).toMatchObject({
      Action: { Block: { CustomResponse: { ResponseCode: 413 } } },
      Statement: {
        SizeConstraintStatement: {
          ComparisonOperator: "GT",
          Size: EDGE_MAX_BODY_BYTES,
          FieldToMatch: { Body: { OversizeHandling: "MATCH" } },
        },
      },
    });
    expect(rules[1]).toMatchObject({
      Action: { Block: { CustomResponse: { ResponseCode: 429 } } },
      Statement: { RateBasedStatement: { AggregateKeyType: "IP", Limit: limits.perSourceIp, EvaluationWindowSec: 60 } },
    });
    expect(rules[2]).toMatchObject({
      Statement: {
        RateBasedStatement: {
          AggregateKeyType: "CUSTOM_KEYS",
          Limit: limits.perApiKey,
          CustomKeys: [{ Header: { Name: "x-api-key" } }],
        },
      },
    });
    // No one address may take the whole of the stage's minute, nor one key more than twice its app's.
    const stagePerMinute = (environment === "production" ? 1000 : 250) * 60;
    const appPerMinute = (environment === "production" ? 100 : 25) * 60;
    expect(limits.perSourceIp).toBeLessThan(stagePerMinute);
    expect(limits.perApiKey).toBe(2 * appPerMinute);
    expect(limits.perSourceIp + limits.perApiKey).toBeLessThan(stagePerMinute);
    const bodies = acl.Properties.CustomResponseBodies as Record<string, { Content: string }>;
    for (const body of Object.values(bodies)) {
      expect(JSON.parse(body.Content)).toMatchObject({ type: expect.stringMatching(/^urn:problem:verification-api:/) });
    }
  });

  it("keeps the public API's logical ids, so no deployed resource is replaced", () => {
    expect(apiId(stack, "public")).toBe("ApiF70053CD");
    expect(authorizerIdOf(template, stack, "public")).toBe("ApiKeyAuthorizerD0BEAC37");
    const ids = Object.keys(template.toJSON().Resources as Json);
    expect(ids).toEqual(expect.arrayContaining(["AccessLogs8B620ECA", "ExecutionLogs6FEE23C8", "ApiAccountA18C9B29"]));
  });

  it("lets API Gateway invoke each function only for its own routes (and each authorizer for its authorizer)", () => {
    const permissions = Object.values(template.findResources("AWS::Lambda::Permission"))
      .map((permission) => permission.Properties)
      .filter((permission) => permission.Principal === "apigateway.amazonaws.com");
    expect(permissions).toHaveLength(allRoutes.length + apiNames.length);
    const sourceOf = (name: string) =>
      permissions
        .filter((permission) => permission.FunctionName["Fn::GetAtt"][0] === functionId(stack, name))
        .map((permission) => JSON.stringify(permission.SourceArn));
    for (const name of apiNames) {
      const routed = new Set(routesOf(name).map((route) => route.function));
      for (const fn of routed) {
        const expected = routesOf(name)
          .filter((route) => route.function === fn)
          .map((route) => `/${route.method}${route.path.replace(/\{[^}]+\}/g, "*")}"`);
        const sources = sourceOf(fn);
        expect(sources, fn).toHaveLength(expected.length);
        for (const source of sources) expect(source).toContain(`{"Ref":"${apiId(stack, name)}"}`);
        for (const suffix of expected)
          expect(
            sources.filter((source) => source.includes(suffix)),
            fn,
          ).toHaveLength(1);
      }
      const authorizerId = authorizerIdOf(template, stack, name);
      expect(sourceOf(APIS[name].authorizer.function)).toEqual([
        expect.stringContaining(`"/authorizers/",{"Ref":"${authorizerId}"}`),
      ]);
    }
  });

  it("has the public API's REQUEST authorizer on X-API-Key, cached 300 s, backed by the authorizer function", () => {
    template.resourceCountIs("AWS::ApiGateway::Authorizer", apiNames.length);
    const authorizer = template.toJSON().Resources[authorizerIdOf(template, stack, "public")];
    expect(authorizer.Properties).toMatchObject({
      Type: "REQUEST",
      IdentitySource: "method.request.header.X-API-Key",
      AuthorizerResultTtlInSeconds: 300,
    });
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(`"${functionId(stack, "authorizer")}"`);
  });

  it("has the backoffice API's TOKEN authorizer on Authorization, cached 60 s, backed by the staff authorizer", () => {
    const authorizer = template.toJSON().Resources[authorizerIdOf(template, stack, "backoffice")];
    expect(authorizer.Properties).toMatchObject({
      Type: "TOKEN",
      IdentitySource: "method.request.header.Authorization",
      AuthorizerResultTtlInSeconds: 60,
    });
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(`"${functionId(stack, "staff-authorizer")}"`);
  });

  it("builds one function per shared declaration: Node 22 or newer, arm64, traced, its settings that have values in AWS", () => {
    const functions = template.findResources("AWS::Lambda::Function");
    expect(Object.keys(functions)).toHaveLength(entries.length);
    for (const [name, definition] of entries) {
      const fn = functions[functionId(stack, name)]?.Properties;
      expect(Number(/^nodejs(\d+)\.x$/.exec(fn.Runtime)?.[1])).toBeGreaterThanOrEqual(22);
      expect(fn).toMatchObject({
        Architectures: ["arm64"],
        Timeout: definition.timeoutSeconds,
        TracingConfig: { Mode: "Active" },
        LoggingConfig: { LogFormat: "JSON" },
      });
      const variables = fn.Environment.Variables as Json;
      // The simulator's address, for every function that reads e-Devlet's (the askers, and the tick's canary).
      const readsAddress = (setting: string) =>
        asksSimulator && (definition.settings as readonly string[]).includes(setting);
      const chosen: string[] = [
        ...["EDEVLET_URL", "EDEVLET_MOBILE_URL"].filter(readsAddress),
        ...(definition.access.simulator ? ["SIMULATOR_KEY_ARN"] : []),
      ];
      expect(Object.keys(variables).sort()).toEqual(
        [
          ...definition.settings.filter(
            (setting) => !LOCAL_ONLY_SETTINGS.includes(setting) && !CHOSEN_ISSUER_SETTINGS.includes(setting),
          ),
          ...chosen,
          "NODE_OPTIONS",
          "POWERTOOLS_LOG_LEVEL",
          "POWERTOOLS_SERVICE_NAME",
        ].sort(),
      );
      if (chosen.includes("EDEVLET_URL")) {
        const simulatorUrl = { "Fn::GetAtt": [expect.stringMatching(/^EdevletSimulatorFunction.*Url/), "FunctionUrl"] };
        expect(variables).toMatchObject({ EDEVLET_URL: simulatorUrl });
        if (chosen.includes("EDEVLET_MOBILE_URL"))
          expect(variables).toMatchObject({ EDEVLET_MOBILE_URL: simulatorUrl });
      }
      if (chosen.includes("SIMULATOR_KEY_ARN")) {
        expect(variables.SIMULATOR_KEY_ARN).toEqual({ Ref: secretIdStartingWith(template, "SimulatorKey") });
      }
      // e-Devlet by the web form, retried for 15 minutes: every function that reaches the issuer reads what it declares of it.
      const issuer = { ISSUER: "edevlet", EDEVLET_PROTOCOL: "form", ISSUER_RETRY_WINDOW_S: "900" };
      for (const [setting, value] of Object.entries(issuer)) {
        if (setting in variables) expect(variables[setting], `${name}: ${setting}`).toBe(value);
      }
      expect(variables).toMatchObject({
        NODE_OPTIONS: "--enable-source-maps",
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_LOG_LEVEL: environment === "production" ? "INFO" : "DEBUG",
      });
      for (const setting of definition.settings) {
        const table = TABLES.find((candidate) => candidate.setting === setting);
        if (table) expect(variables[setting]).toEqual({ Ref: tableId(template, setting) });
      }
      if ("ENVIRONMENT" in variables) expect(variables.ENVIRONMENT).toBe(environment);
      if ("STAFF_USER_POOL_ID" in variables)
        expect(variables.STAFF_USER_POOL_ID).toEqual({ Ref: staffPoolId(template) });
      if ("STAFF_CLIENT_ID" in variables) expect(variables.STAFF_CLIENT_ID).toEqual({ Ref: staffClientId(template) });
      if ("PORTAL_USER_POOL_ID" in variables)
        expect(variables.PORTAL_USER_POOL_ID).toEqual({ Ref: portalPoolId(template) });
      if ("PORTAL_CLIENT_ID" in variables)
        expect(variables.PORTAL_CLIENT_ID).toEqual({ Ref: portalClientId(template) });
      if ("WEB_ASSETS" in variables) expect(variables.WEB_ASSETS).toBe("/var/task/web");
      if ("UPLOADS_BUCKET" in variables)
        expect(variables.UPLOADS_BUCKET).toEqual({ Ref: logicalId(stack, bucket(stack)) });
    }
  });

  it("gives each function's role only its log group, X-Ray and the table, bucket and secret actions it declares", () => {
    const roles = template.findResources("AWS::IAM::Role");
    for (const [name, definition] of entries) {
      const fn = stack.functions.get(name);
      const roleId = logicalId(stack, fn?.role as never);
      expect(roles[roleId]?.Properties.ManagedPolicyArns).toBeUndefined();
      const functionLogical = template.findResources("AWS::Lambda::Function")[functionId(stack, name)];
      const logGroupId = functionLogical?.Properties.LoggingConfig.LogGroup.Ref as string;
      const expected = expectedStatements(stack, template, [name, definition], logGroupId);
      expect(normalizeStatements(policyStatementsOfRole(template, roleId)), name).toEqual(
        normalizeStatements(expected),
      );
    }
  });

  it("lets the tick query its three sparse indexes and nothing else of the tables", () => {
    const tick = template.findResources("AWS::Lambda::Function")[functionId(stack, "tick")];
    const role = tick?.Properties.Role as { "Fn::GetAtt": string[] } | undefined;
    const queries = policyStatementsOfRole(template, role?.["Fn::GetAtt"][0] ?? "").filter((statement) =>
      [statement.Action].flat().includes("dynamodb:Query"),
    );
    expect(queries.length).toBeGreaterThan(0);
    const reached = JSON.stringify(queries.map((statement) => statement.Resource));
    for (const index of ["awaiting_by_deadline", "in_review_by_deadline", "due_deliveries"]) {
      expect(reached).toContain(`/index/${index}`);
    }
    for (const index of ["verifications_by_app", "verifications_by_reference", "attempts_by_app", "events_by_app"]) {
      expect(reached).not.toContain(`/index/${index}`);
    }
    expect(reached).not.toMatch(/"Arn"\]\}(?!,"\/index)/);
  });

  it("seals identity numbers sent on create with a key of their own: create seals, the issuer queue's reader opens, always for an app and a verification; the HMAC key digests for those that declare it", () => {
    const keys = template.findResources("AWS::KMS::Key");
    const keyOf = (start: string) =>
      Object.values(keys).find((key) => String(key.Properties.Description ?? "").startsWith(start))?.Properties;
    const roleOf = (name: string) =>
      JSON.stringify({ "Fn::GetAtt": [logicalId(stack, stack.functions.get(name)?.role as never), "Arn"] });
    const identity = keyOf("Seals identity numbers sent on create");
    const policy = identity?.KeyPolicy.Statement as Json[];
    expect(whoMay(policy, "kms:Encrypt")).toEqual([roleOf("create-verification")]);
    expect(whoMay(policy, "kms:Decrypt")).toEqual([roleOf("ask-issuer")]);
    for (const statement of policy.filter(
      (candidate) => allows(candidate, "kms:Decrypt") || allows(candidate, "kms:Encrypt"),
    )) {
      expect(statement.Condition).toEqual({
        "ForAllValues:StringEquals": { "kms:EncryptionContextKeys": ["app_id", "verification_id"] },
        StringLike: { "kms:EncryptionContext:app_id": "app_*", "kms:EncryptionContext:verification_id": "ver_*" },
      });
    }
    const subject = keyOf("Digests expected identity numbers");
    expect(subject).toMatchObject({ KeySpec: "HMAC_256", KeyUsage: "GENERATE_VERIFY_MAC" });
    const digesting = entries.filter(([, definition]) => definition.access.subjectDigest).map(([name]) => name);
    expect(digesting.sort()).toEqual(["ask-issuer", "confirm-upload", "create-verification", "on-verification-change"]);
    expect(whoMay(subject?.KeyPolicy.Statement as Json[], "kms:GenerateMac")).toEqual(digesting.map(roleOf).sort());
  });

  it("seals webhook secrets with a KMS key whose own policy names who may use it: the delivering roles decrypt, the sealing roles and operators encrypt, always for an app", () => {
    const key = sealingKeyId(template);
    const properties = template.findResources("AWS::KMS::Key")[key]?.Properties;
    expect(properties?.EnableKeyRotation).toBe(true);
    const policy = properties?.KeyPolicy.Statement as Json[];
    const roleOf = (name: string) => logicalId(stack, stack.functions.get(name)?.role as never);
    const declaring = (use: "encrypt" | "decrypt") =>
      entries.filter(([, definition]) => definition.access.sealing === use).map(([name]) => name);
    expect(declaring("decrypt").sort()).toEqual(["deliver-webhooks", "test-webhook", "tick"]);
    expect(declaring("encrypt").sort()).toEqual(["create-app", "rotate-webhook-secret"]);
    const role = (id: string) => JSON.stringify({ "Fn::GetAtt": [id, "Arn"] });

    // Only the three delivering roles may open a secret, and only the sealing roles and operators seal one.
    expect(whoMay(policy, "kms:Decrypt")).toEqual(declaring("decrypt").map(roleOf).map(role).sort());
    expect(whoMay(policy, "kms:Encrypt")).toEqual(
      [...declaring("encrypt").map(roleOf), operatorRoleId(template)].map(role).sort(),
    );
    // ...and each of them only for an app: the app id the one encryption context key.
    for (const statement of policy.filter(
      (candidate) => allows(candidate, "kms:Decrypt") || allows(candidate, "kms:Encrypt"),
    )) {
      expect(statement.Condition).toEqual({
        "ForAllValues:StringEquals": { "kms:EncryptionContextKeys": ["app_id"] },
        StringLike: { "kms:EncryptionContext:app_id": "app_*" },
      });
    }
    // No other way to the plaintext: no re-encryption, no data keys, no grant handing the key's use to another.
    for (const action of KEY_ACTIONS.filter((candidate) =>
      /^kms:(ReEncrypt|GenerateDataKey|CreateGrant)/.test(candidate),
    )) {
      expect(whoMay(policy, action), action).toEqual([]);
    }

    // The account keeps the key's administration, so the key can never be orphaned (and PutKeyPolicy
    // passes KMS's lockout safety check), but not its use.
    const root = JSON.stringify(`arn:aws:iam::${ACCOUNT}:root`);
    const administered = KEY_ACTIONS.filter((action) => whoMay(policy, action).includes(root));
    expect(administered).toEqual(
      expect.arrayContaining([
        "kms:PutKeyPolicy",
        "kms:GetKeyPolicy",
        "kms:DescribeKey",
        "kms:EnableKeyRotation",
        "kms:ScheduleKeyDeletion",
        "kms:CancelKeyDeletion",
        "kms:TagResource",
      ]),
    );
    expect(administered.filter((action) => /^kms:(Encrypt|Decrypt|ReEncrypt|GenerateDataKey)/.test(action))).toEqual(
      [],
    );
    // Nobody else is allowed anything: no service, no other account, no wildcard.
    const allowed = policy.filter((statement) => statement.Effect === "Allow").flatMap(principalsOf);
    expect([...new Set(allowed)].sort()).toEqual(
      [
        root,
        ...[...declaring("decrypt"), ...declaring("encrypt")].map(roleOf).map(role),
        role(operatorRoleId(template)),
      ].sort(),
    );

    // An IAM statement alone opens nothing now, and none is kept beside the key policy's.
    const iamStatements = Object.values(template.findResources("AWS::IAM::Policy"))
      .flatMap((found) => found.Properties.PolicyDocument.Statement as Json[])
      .concat(
        Object.values(template.findResources("AWS::IAM::Role")).flatMap((found) =>
          ((found.Properties.Policies ?? []) as { PolicyDocument: { Statement: Json[] } }[]).flatMap(
            (document) => document.PolicyDocument.Statement,
          ),
        ),
      );
    expect(iamStatements.filter((statement) => JSON.stringify(statement.Resource ?? "").includes(key))).toEqual([]);
  });

  it("lets the API key authorizer read key items only and write their last use alone, and only this account's alarms use the topic key", () => {
    const authorizer = template.findResources("AWS::Lambda::Function")[functionId(stack, "authorizer")];
    const role = authorizer?.Properties.Role as { "Fn::GetAtt": string[] } | undefined;
    const roleId = role?.["Fn::GetAtt"][0] ?? "";
    const tableStatements = policyStatementsOfRole(template, roleId).filter((statement) =>
      [statement.Action].flat().some((action) => String(action).startsWith("dynamodb:")),
    );
    expect(tableStatements.map((statement) => [statement.Action, statement.Condition])).toEqual([
      ["dynamodb:GetItem", { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["KEY#*"] } }],
      [
        "dynamodb:UpdateItem",
        {
          "ForAllValues:StringLike": {
            "dynamodb:LeadingKeys": ["KEY#*"],
            "dynamodb:Attributes": ["pk", "last_used_at"],
          },
          StringEqualsIfExists: { "dynamodb:ReturnValues": "NONE" },
        },
      ],
    ]);
    const keys = Object.values(template.findResources("AWS::KMS::Key"));
    const cloudWatch = keys
      .flatMap((key) => key.Properties.KeyPolicy.Statement as Json[])
      .filter((statement) => JSON.stringify(statement.Principal).includes("cloudwatch.amazonaws.com"));
    expect(cloudWatch).toHaveLength(1);
    expect(cloudWatch[0]?.Condition).toMatchObject({
      StringEquals: { "aws:SourceAccount": ACCOUNT },
      ArnLike: { "aws:SourceArn": expect.stringMatching(/^arn:aws:cloudwatch:[a-z0-9-]+:\d{12}:alarm:\*$/) },
    });
  });

  it("creates every shared table with its keys, indexes, TTL and stream, recoverable and encrypted", () => {
    template.resourceCountIs("AWS::DynamoDB::Table", TABLES.length);
    for (const definition of TABLES) {
      const keys = [definition.partitionKey, ...(definition.sortKey ? [definition.sortKey] : [])];
      template.hasResource("AWS::DynamoDB::Table", {
        DeletionPolicy: retained ? "Retain" : "Delete",
        UpdateReplacePolicy: retained ? "Retain" : "Delete",
        Properties: {
          KeySchema: keys.map((key, i) => ({ AttributeName: key.name, KeyType: i === 0 ? "HASH" : "RANGE" })),
          BillingMode: "PAY_PER_REQUEST",
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          SSESpecification: { SSEEnabled: true },
          DeletionProtectionEnabled: retained,
          ...(definition.ttlAttribute
            ? { TimeToLiveSpecification: { AttributeName: definition.ttlAttribute, Enabled: true } }
            : {}),
          StreamSpecification: definition.stream ? { StreamViewType: definition.stream } : Match.absent(),
          ResourcePolicy: definition.appendOnly ? Match.anyValue() : Match.absent(),
          GlobalSecondaryIndexes:
            definition.globalIndexes.length > 0
              ? definition.globalIndexes.map((index) =>
                  Match.objectLike({
                    IndexName: index.indexName,
                    KeySchema: [
                      { AttributeName: index.partitionKey.name, KeyType: "HASH" },
                      ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: "RANGE" }] : []),
                    ],
                    Projection: { ProjectionType: "ALL" },
                  }),
                )
              : Match.absent(),
        },
      });
    }
  });

  it("streams every change of a verification with old and new images, and expires idempotency records", () => {
    template.hasResourceProperties("AWS::DynamoDB::Table", {
      KeySchema: [{ AttributeName: "verification_id", KeyType: "HASH" }],
      StreamSpecification: { StreamViewType: "NEW_AND_OLD_IMAGES" },
    });
    template.hasResourceProperties("AWS::DynamoDB::Table", {
      KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
      TimeToLiveSpecification: { AttributeName: "expiration", Enabled: true },
    });
  });

  it("keeps the audit trail and its digests append only: no principal may change or delete one, and records expire after two years", () => {
    const audit = template.toJSON().Resources[tableId(template, "AUDIT_TABLE")];
    const digests = template.toJSON().Resources[tableId(template, "AUDIT_DIGESTS_TABLE")];
    expect(audit.Properties.TimeToLiveSpecification).toEqual({ AttributeName: "expires_at_epoch", Enabled: true });
    // Digests never expire: they hold ids and hashes, no personal data.
    expect(digests.Properties.TimeToLiveSpecification).toBeUndefined();
    expect(digests.Properties.ResourcePolicy).toEqual(audit.Properties.ResourcePolicy);
    expect(audit.Properties.ResourcePolicy.PolicyDocument.Statement).toEqual([
      {
        Effect: "Deny",
        Principal: { AWS: "*" },
        Action: [
          "dynamodb:BatchWriteItem",
          "dynamodb:DeleteItem",
          "dynamodb:PartiQLDelete",
          "dynamodb:PartiQLInsert",
          "dynamodb:PartiQLUpdate",
          "dynamodb:UpdateItem",
        ],
        Resource: "*",
      },
    ]);
    // The functions only append (PutItem) and read (Query), as they declare; only the sealer
    // writes a digest (test/adapters/audit-tampering.test.ts reads the same from the template).
    for (const [name, definition] of entries) {
      const actions = definition.access.tables.AUDIT_TABLE ?? [];
      for (const action of actions) expect(["dynamodb:PutItem", "dynamodb:Query"], name).toContain(action);
      const onDigests = definition.access.tables.AUDIT_DIGESTS_TABLE ?? [];
      if (name !== "seal-audit") expect(onDigests, name).toEqual([]);
    }
    expect(audit).toMatchObject({ DeletionPolicy: retained ? "Retain" : "Delete" });
    expect(audit.Properties.DeletionProtectionEnabled).toBe(retained);
  });

  it("keeps uploads private, encrypted, TLS only, without ACLs, and deletes documents after the retention", () => {
    const uploadsId = logicalId(stack, bucket(stack));
    template.hasResource("AWS::S3::Bucket", {
      DeletionPolicy: retained ? "Retain" : "Delete",
      Properties: Match.objectLike({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
        },
        OwnershipControls: { Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }] },
        LoggingConfiguration: Match.objectLike({ DestinationBucketName: Match.anyValue() }),
        LifecycleConfiguration: {
          Rules: [
            Match.objectLike({
              Prefix: "documents/",
              ExpirationInDays: retained ? 30 : 7,
              Status: "Enabled",
            }),
          ],
        },
      }),
    });
    template.hasResourceProperties("AWS::S3::BucketPolicy", {
      Bucket: { Ref: uploadsId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: "Deny",
            Action: "s3:*",
            Principal: { AWS: "*" },
            Condition: { Bool: { "aws:SecureTransport": "false" } },
          }),
        ]),
      },
    });
    // Nothing grants public or cross-account access to the uploads.
    const statements = template.findResources("AWS::S3::BucketPolicy", { Properties: { Bucket: { Ref: uploadsId } } });
    for (const policy of Object.values(statements)) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Json[])
        expect(statement.Effect).toBe("Deny");
    }
  });

  it("lets the review console alone read documents across origins, by GET, so pdf.js can draw them", () => {
    const uploads = template.toJSON().Resources[logicalId(stack, bucket(stack))];
    expect(uploads.Properties.CorsConfiguration).toEqual({
      CorsRules: [
        {
          AllowedMethods: ["GET"],
          AllowedOrigins: [
            {
              "Fn::Join": [
                "",
                ["https://", { Ref: apiId(stack, "backoffice") }, `.execute-api.${REGION}.`, { Ref: "AWS::URLSuffix" }],
              ],
            },
          ],
        },
      ],
    });
  });

  it.each(apiNames)("answers the %s API's gateway errors with its own problem+json, status and Request-Id", (name) => {
    const responses = template.findResources("AWS::ApiGateway::GatewayResponse", {
      Properties: { RestApiId: { Ref: apiId(stack, name) } },
    });
    const deployed = deployedGatewayResponses(APIS[name].gatewayResponses);
    expect(
      Object.values(responses)
        .map((response) => response.Properties.ResponseType)
        .sort(),
    ).toEqual(
      [
        "ACCESS_DENIED",
        "AUTHORIZER_FAILURE",
        "DEFAULT_4XX",
        "DEFAULT_5XX",
        "INVALID_API_KEY",
        "MISSING_AUTHENTICATION_TOKEN",
        "REQUEST_TOO_LARGE",
        "THROTTLED",
        "UNAUTHORIZED",
      ].sort(),
    );
    const expectedStatus = {
      UNAUTHORIZED: "401",
      ACCESS_DENIED: "403",
      MISSING_AUTHENTICATION_TOKEN: "404",
      DEFAULT_4XX: "404",
      REQUEST_TOO_LARGE: "413",
      THROTTLED: "429",
      AUTHORIZER_FAILURE: "503",
      INVALID_API_KEY: "503",
      DEFAULT_5XX: "500",
    } as Record<string, string>;
    const codes: Record<string, string> = {};
    for (const response of Object.values(responses)) {
      const { ResponseType, StatusCode, ResponseParameters, ResponseTemplates } = response.Properties;
      expect(StatusCode, ResponseType).toBe(expectedStatus[ResponseType]);
      expect(ResponseParameters).toMatchObject({
        "gatewayresponse.header.Content-Type": "'application/problem+json'",
        "gatewayresponse.header.Request-Id": "context.requestId",
      });
      const body = problemSchema.parse(JSON.parse(ResponseTemplates["application/json"]));
      expect(body.request_id).toBe("$context.requestId");
      expect(String(body.status)).toBe(StatusCode);
      expect(body.code).toBe(deployed[ResponseType]?.code);
      expect(body.title).toBe(PROBLEMS[body.code].title);
      codes[ResponseType] = body.code;
      if (ResponseType === "THROTTLED" || ResponseType === "AUTHORIZER_FAILURE") {
        expect(ResponseParameters).toMatchObject({ "gatewayresponse.header.Retry-After": "'1'" });
      }
    }
    expect(codes).toMatchObject(
      name === "public"
        ? {
            UNAUTHORIZED: "invalid_api_key",
            ACCESS_DENIED: "app_disabled",
            MISSING_AUTHENTICATION_TOKEN: "route_not_found",
          }
        : {
            UNAUTHORIZED: "invalid_token",
            ACCESS_DENIED: "forbidden",
            MISSING_AUTHENTICATION_TOKEN: "route_not_found",
          },
    );
  });

  it.each(apiNames)(
    "throttles the %s API's stage as the contract says, traces it and writes JSON access logs without headers",
    (name) => {
      // Ten apps at the contract's rate (production 100 req/s, burst 200; sandbox 25, burst 50) each.
      const limits = environment === "production" ? { rate: 1000, burst: 2000 } : { rate: 250, burst: 500 };
      template.resourceCountIs("AWS::ApiGateway::Stage", apiNames.length);
      const stages = Object.values(
        template.findResources("AWS::ApiGateway::Stage", { Properties: { RestApiId: { Ref: apiId(stack, name) } } }),
      );
      expect(stages).toHaveLength(1);
      const stage = stages[0] as Json & {
        Properties: Json & { AccessLogSetting: { Format: string } };
        DependsOn: string[];
      };
      expect(stage.Properties).toMatchObject({
        StageName: environment,
        TracingEnabled: true,
        MethodSettings: [
          {
            HttpMethod: "*",
            ResourcePath: "/*",
            ThrottlingRateLimit: limits.rate,
            ThrottlingBurstLimit: limits.burst,
            DataTraceEnabled: false,
            LoggingLevel: "ERROR",
          },
        ],
      });
      // Execution logging needs the account's API Gateway role: one for the account, set before every stage.
      const [accountId] = Object.keys(template.findResources("AWS::ApiGateway::Account"));
      template.resourceCountIs("AWS::ApiGateway::Account", 1);
      expect(stage.DependsOn).toContain(accountId);
      const format = JSON.parse(stage.Properties.AccessLogSetting.Format);
      expect(format).toMatchObject({
        requestId: "$context.requestId",
        status: "$context.status",
        errorType: "$context.error.responseType",
      });
      expect(JSON.stringify(format)).not.toMatch(/header|apiKey|token/i);
    },
  );

  it("alarms on each API's 5xx rate, authorizer failures and throttles, and on function errors, into the alarm topic", () => {
    const topicId = Object.keys(template.findResources("AWS::SNS::Topic"))[0] as string;
    const alarms = Object.values(template.findResources("AWS::CloudWatch::Alarm"));
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    const metricNames = alarms.map(
      (alarm) =>
        alarm.Properties.MetricName ??
        (alarm.Properties.Metrics as Json[])
          .map((m) => (m.MetricStat as { Metric: Json } | undefined)?.Metric.MetricName)
          .filter(Boolean)
          .sort()
          .join("+"),
    );
    expect(metricNames.filter((metric) => metric === "5XXError+Count")).toHaveLength(apiNames.length);
    expect(metricNames).toEqual(
      expect.arrayContaining([
        "AuthorizerFailures",
        "ThrottledRequests",
        "AppsWithoutLimits",
        "BackofficeAuthorizerFailures",
        "BackofficeThrottledRequests",
      ]),
    );
    for (const [name] of entries) {
      const dimension = { Name: "FunctionName", Value: { Ref: functionId(stack, name) } };
      // One alarm watches a few functions: each one's throttles, and for a route handler its errors
      // beside them. An authorizer throws for every refused key or token; its failures are counted
      // from the access log.
      const watched = alarms
        .map((alarm) =>
          alarm.Properties.MetricName
            ? [{ MetricName: alarm.Properties.MetricName, Dimensions: alarm.Properties.Dimensions }]
            : (alarm.Properties.Metrics as { MetricStat?: { Metric: Json } }[]).flatMap((m) =>
                m.MetricStat ? [m.MetricStat.Metric] : [],
              ),
        )
        .filter((metrics) =>
          metrics.some((metric) => JSON.stringify(metric.Dimensions) === JSON.stringify([dimension])),
        );
      expect(watched, name).toHaveLength(1);
      const own = (watched[0] ?? []).filter(
        (metric) => JSON.stringify(metric.Dimensions) === JSON.stringify([dimension]),
      );
      expect(own.map((metric) => metric.MetricName).sort(), name).toEqual(
        authorizerFunctions.has(name) ? ["Throttles"] : ["Errors", "Throttles"],
      );
    }
    const accessLogs = template.findResources("AWS::Logs::MetricFilter", {
      Properties: { FilterPattern: Match.stringLikeRegexp("AUTHORIZER_FAILURE") },
    });
    const stageLogs = Object.values(template.findResources("AWS::ApiGateway::Stage")).map(
      (stage) => stage.Properties.AccessLogSetting.DestinationArn["Fn::Join"][1][1],
    );
    expect(Object.values(accessLogs).map((filter) => filter.Properties.LogGroupName)).toEqual(
      expect.arrayContaining(stageLogs),
    );
    // Only the public API's callers are apps with keys in the usage plan.
    expect(metricNames.filter((metric) => String(metric).endsWith("AppsWithoutLimits"))).toEqual(["AppsWithoutLimits"]);
    template.hasResourceProperties("AWS::SNS::Topic", { KmsMasterKeyId: Match.anyValue() });
  });

  it("generates the sealing key in Secrets Manager, retained in production", () => {
    template.hasResource("AWS::SecretsManager::Secret", {
      DeletionPolicy: retained ? "Retain" : "Delete",
      Properties: Match.objectLike({
        GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true, IncludeSpace: false },
      }),
    });
  });

  it("gives operators one role with exactly the ops command's access, to this account's principals with MFA, an hour at a time", () => {
    const roles = Object.values(template.findResources("AWS::IAM::Role")).filter((role) =>
      String(role.Properties.Description ?? "").startsWith("Runs the ops command"),
    );
    expect(roles).toHaveLength(1);
    const role = roles[0]?.Properties as Json;
    expect(role.MaxSessionDuration).toBe(OPERATOR_SESSION_SECONDS);
    const trust = (role.AssumeRolePolicyDocument as { Statement: Json[] }).Statement;
    expect(trust).toHaveLength(1);
    expect(trust[0]).toMatchObject({
      Action: "sts:AssumeRole",
      Condition: {
        Bool: { "aws:MultiFactorAuthPresent": "true" },
        NumericLessThan: { "aws:MultiFactorAuthAge": String(OPERATOR_SESSION_SECONDS) },
      },
    });
    expect(JSON.stringify(trust[0]?.Principal)).toContain(`:iam::${ACCOUNT}:root`);
    const statements = (role.Policies as { PolicyDocument: { Statement: Json[] } }[]).flatMap(
      (policy) => policy.PolicyDocument.Statement,
    );
    // As sets: statements of the same actions on different tables are merged into one.
    const actions = [...new Set(statements.flatMap((statement) => [statement.Action].flat()))].sort();
    expect(actions).toEqual(
      [
        ...new Set([
          ...Object.values(OPERATOR_ACCESS.tables).flat(),
          ...OPERATOR_ACCESS.uploads,
          ...OPERATOR_ACCESS.userPools,
          ...OPERATOR_ACCESS.sealingKey,
          // OPERATOR_ACCESS.kms is granted in the sealing key's own policy (see the sealing key's test).
          ...OPERATOR_ACCESS.stack,
          // apps create and apps sync-limits: the apps' keys in the usage plan.
          "apigateway:GET",
          "apigateway:POST",
        ]),
      ].sort(),
    );
    // Nothing on any resource: every statement names its own.
    for (const statement of statements) expect(statement.Resource).not.toBe("*");
    expect(template.findOutputs("OperatorRoleArn")).not.toEqual({});
  });

  it("records what operators read and change in the verifications, apps and audit tables: a trail of their sessions' data events, validated, kept and undeletable", () => {
    const trails = template.findResources("AWS::CloudTrail::Trail");
    expect(Object.keys(trails)).toHaveLength(1);
    const trail = (Object.values(trails)[0] as { Properties: Json }).Properties;
    expect(trail).toMatchObject({ IsLogging: true, EnableLogFileValidation: true });
    expect(trail.EventSelectors).toBeUndefined();
    const selectors = trail.AdvancedEventSelectors as { FieldSelectors: Json[] }[];
    expect(selectors).toHaveLength(1);
    const fields = Object.fromEntries((selectors[0]?.FieldSelectors ?? []).map((field) => [field.Field, field]));
    // Reads and writes alike (no readOnly field), of these three tables only, by the operator role only.
    expect(Object.keys(fields).sort()).toEqual([
      "eventCategory",
      "resources.ARN",
      "resources.type",
      "userIdentity.arn",
    ]);
    expect(fields.eventCategory).toEqual({ Field: "eventCategory", Equals: ["Data"] });
    expect(fields["resources.type"]).toEqual({ Field: "resources.type", Equals: ["AWS::DynamoDB::Table"] });
    expect(OPERATOR_TRAIL.tables).toEqual(["VERIFICATIONS_TABLE", "APPS_TABLE", "AUDIT_TABLE"]);
    expect(fields["resources.ARN"]).toEqual({
      Field: "resources.ARN",
      Equals: OPERATOR_TRAIL.tables.map((setting) => ({ "Fn::GetAtt": [tableId(template, setting), "Arn"] })),
    });
    expect(fields["userIdentity.arn"]).toEqual({
      Field: "userIdentity.arn",
      StartsWith: [
        {
          "Fn::Join": ["", [`arn:aws:sts::${ACCOUNT}:assumed-role/`, { Ref: operatorRoleId(template) }, "/"]],
        },
      ],
    });

    // Its logs: a versioned, encrypted, private bucket that keeps them as long as the audit trail
    // keeps its records, retained with the stack in production.
    const bucketId = (trail.S3BucketName as { Ref: string }).Ref;
    const bucket = template.toJSON().Resources[bucketId];
    expect(bucket.Type).toBe("AWS::S3::Bucket");
    expect(bucket.DeletionPolicy).toBe(retained ? "Retain" : "Delete");
    expect(bucket.Properties).toMatchObject({
      VersioningConfiguration: { Status: "Enabled" },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LoggingConfiguration: expect.objectContaining({ DestinationBucketName: expect.anything() }),
    });
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({
        Status: "Enabled",
        ExpirationInDays: OPERATOR_TRAIL.keptDays,
        NoncurrentVersionExpiration: { NoncurrentDays: OPERATOR_TRAIL.keptDays },
      }),
    ]);
    expect(OPERATOR_TRAIL.keptDays * 24 * 60 * 60).toBeGreaterThanOrEqual(AUDIT_RETENTION_SECONDS);

    // Only this trail writes there, and no principal deletes a record; the trail waits for that policy.
    const policies = Object.entries(
      template.findResources("AWS::S3::BucketPolicy", { Properties: { Bucket: { Ref: bucketId } } }),
    );
    expect(policies).toHaveLength(1);
    const [policyId, policy] = policies[0] as [string, { Properties: { PolicyDocument: { Statement: Json[] } } }];
    const statements = policy.Properties.PolicyDocument.Statement;
    const trailArn = `arn:aws:cloudtrail:${REGION}:${ACCOUNT}:trail/VerificationApi-${environment}-operator-reads`;
    for (const action of ["s3:GetBucketAcl", "s3:PutObject"]) {
      const granting = statements.filter((statement) => statement.Effect === "Allow" && allows(statement, action));
      expect(granting).toEqual([
        expect.objectContaining({
          Principal: { Service: "cloudtrail.amazonaws.com" },
          Condition: { StringEquals: expect.objectContaining({ "aws:SourceArn": trailArn }) },
        }),
      ]);
    }
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: "Deny",
        Principal: { AWS: "*" },
        Action: ["s3:DeleteObject", "s3:DeleteObjectVersion"],
      }),
    );
    expect(trail.TrailName).toBe(`VerificationApi-${environment}-operator-reads`);
    expect(Object.values(trails)[0]).toMatchObject({ DependsOn: expect.arrayContaining([policyId]) });
    expect(template.findOutputs("OperatorTrailBucketName").OperatorTrailBucketName?.Value).toEqual({ Ref: bucketId });
  });

  it("throttles each app on its own: a usage plan at the contract's rate, keyed by the authorizer, on the public stage only", () => {
    template.resourceCountIs("AWS::ApiGateway::UsagePlan", 1);
    const plan = template.toJSON().Resources[usagePlanId(template)].Properties;
    const contract =
      environment === "production" ? { RateLimit: 100, BurstLimit: 200 } : { RateLimit: 25, BurstLimit: 50 };
    expect(plan.Throttle).toEqual(contract);
    expect(plan.Quota).toBeUndefined();
    expect(plan.ApiStages).toHaveLength(1);
    expect(plan.ApiStages[0]).toMatchObject({ ApiId: { Ref: apiId(stack, "public") }, Stage: expect.anything() });
    for (const name of apiNames) {
      const api = template.toJSON().Resources[apiId(stack, name)].Properties;
      const methods = Object.values(
        template.findResources("AWS::ApiGateway::Method", { Properties: { RestApiId: { Ref: apiId(stack, name) } } }),
      ).map((method) => method.Properties);
      const authorized = methods.filter((method) => method.AuthorizationType === "CUSTOM");
      expect(authorized.length).toBeGreaterThan(0);
      if (name === "public") {
        // The key comes from the authorizer alone: a request cannot name another app's bucket.
        expect(api.ApiKeySourceType).toBe("AUTHORIZER");
        for (const method of authorized) expect(method.ApiKeyRequired).toBe(true);
      } else {
        expect(api.ApiKeySourceType).toBeUndefined();
        for (const method of authorized) expect(method.ApiKeyRequired).not.toBe(true);
      }
      for (const method of methods.filter((candidate) => candidate.AuthorizationType !== "CUSTOM")) {
        expect(method.ApiKeyRequired).not.toBe(true);
      }
    }
    const createApp = template.toJSON().Resources[functionId(stack, "create-app")].Properties;
    expect(createApp.Environment.Variables.USAGE_PLAN_ID).toEqual({ Ref: usagePlanId(template) });
  });

  it("outputs what operators and the ops command read", () => {
    const outputs = template.findOutputs("*");
    expect(Object.keys(outputs).sort()).toEqual(
      [
        "AlarmTopicArn",
        "AuditSealingKeyArn",
        "OperatorRoleArn",
        "OperatorTrailBucketName",
        "SealingKeyArn",
        "SecretsKeyArn",
        "UploadsBucketName",
        "StaffUserPoolId",
        "StaffClientId",
        "PortalUserPoolId",
        "PortalClientId",
        "UsagePlanId",
        // The sandbox's e-Devlet simulator, which its processing asks.
        ...(environment === "sandbox" ? ["EdevletSimulatorUrl"] : []),
        ...apiNames.map((name) => `${APIS[name].id}Url`),
        ...TABLES.map((table) => `${table.id}TableName`),
      ].sort(),
    );
    expect(outputs.AppsTableName?.Value).toEqual({ Ref: tableId(template, "APPS_TABLE") });
    expect(outputs.VerificationsTableName?.Value).toEqual({ Ref: tableId(template, "VERIFICATIONS_TABLE") });
    expect(outputs.IdempotencyTableName?.Value).toEqual({ Ref: tableId(template, "IDEMPOTENCY_TABLE") });
    expect(outputs.StaffUserPoolId?.Value).toEqual({ Ref: staffPoolId(template) });
    expect(outputs.StaffClientId?.Value).toEqual({ Ref: staffClientId(template) });
    expect(outputs.PortalUserPoolId?.Value).toEqual({ Ref: portalPoolId(template) });
    expect(outputs.PortalClientId?.Value).toEqual({ Ref: portalClientId(template) });
    expect(outputs.UsagePlanId?.Value).toEqual({ Ref: usagePlanId(template) });
    for (const name of apiNames) {
      // A base URL: the stage, no trailing slash.
      const url = outputs[`${APIS[name].id}Url`]?.Value;
      expect(JSON.stringify(url)).toContain(`{"Ref":"${apiId(stack, name)}"}`);
      expect(JSON.stringify(url)).toMatch(new RegExp(`/${environment}"\\]\\]\\}$`));
    }
  });

  it("keeps staff in a pool only admins add to: username sign-in, TOTP required, a strong password, email recovery", () => {
    template.resourceCountIs("AWS::Cognito::UserPool", 2);
    const pool = template.toJSON().Resources[staffPoolId(template)];
    expect(pool).toMatchObject({ DeletionPolicy: retained ? "Retain" : "Delete" });
    expect(pool.Properties).toMatchObject({
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      MfaConfiguration: "ON",
      EnabledMfas: ["SOFTWARE_TOKEN_MFA"],
      Policies: {
        PasswordPolicy: {
          MinimumLength: 12,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        },
      },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: "verified_email", Priority: 1 }] },
      DeletionProtection: retained ? "ACTIVE" : "INACTIVE",
    });
    // Sign-in by username: no email or phone alias, and no SMS role.
    expect(pool.Properties.UsernameAttributes).toBeUndefined();
    expect(pool.Properties.AliasAttributes).toBeUndefined();
    expect(pool.Properties.SmsConfiguration).toBeUndefined();
    const groups = Object.values(template.findResources("AWS::Cognito::UserPoolGroup"));
    expect(groups.map((group) => group.Properties.GroupName).sort()).toEqual([...STAFF_GROUPS].sort());
    for (const group of groups) expect(group.Properties.UserPoolId).toEqual({ Ref: staffPoolId(template) });
  });

  it("keeps portal logins in a pool of their own: admin-created, MFA the user's choice (TOTP only), the same policy, no groups", () => {
    const pool = template.toJSON().Resources[portalPoolId(template)];
    expect(pool).toMatchObject({ DeletionPolicy: retained ? "Retain" : "Delete" });
    expect(pool.Properties).toMatchObject({
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      MfaConfiguration: "OPTIONAL",
      EnabledMfas: ["SOFTWARE_TOKEN_MFA"],
      Policies: { PasswordPolicy: { MinimumLength: 12, RequireSymbols: true } },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: "verified_email", Priority: 1 }] },
      DeletionProtection: retained ? "ACTIVE" : "INACTIVE",
    });
    const groups = Object.values(template.findResources("AWS::Cognito::UserPoolGroup"));
    for (const group of groups) expect(group.Properties.UserPoolId).not.toEqual({ Ref: portalPoolId(template) });
  });

  it("gives each web page one client: password sign-in and refresh, no secret, revocable, hour-long tokens", () => {
    const pairs: [string, string][] = [
      [staffClientId(template), staffPoolId(template)],
      [portalClientId(template), portalPoolId(template)],
    ];
    for (const [clientId, poolId] of pairs) {
      expect(template.toJSON().Resources[clientId].Properties).toEqual(pageClient(poolId));
    }
  });

  it("keeps the console's client under the logical id it was deployed with", () => {
    expect(staffClientId(template)).toMatch(/^StaffPoolConsoleClient/);
  });

  it("sets no physical names, so both environments can share an account", () => {
    for (const [type, property] of [
      ["AWS::DynamoDB::Table", "TableName"],
      ["AWS::S3::Bucket", "BucketName"],
      ["AWS::Lambda::Function", "FunctionName"],
      ["AWS::IAM::Role", "RoleName"],
      ["AWS::SNS::Topic", "TopicName"],
      ["AWS::SecretsManager::Secret", "Name"],
      ["AWS::CloudWatch::Alarm", "AlarmName"],
      ["AWS::Cognito::UserPool", "UserPoolName"],
    ] as const) {
      for (const resource of Object.values(template.findResources(type))) {
        expect(resource.Properties?.[property], type).toBeUndefined();
      }
    }
  });

  it("matches its snapshot, asset hashes aside", () => {
    expect(normalizeTemplate(template.toJSON())).toMatchSnapshot();
  });
});

function bucket(stack: VerificationApiStack) {
  const found = stack.node.tryFindChild("Uploads");
  if (!found) throw new Error("no Uploads bucket");
  return found;
}

/** The KMS key that seals webhook secrets (not the alarm topic's key). */
/** The sandbox stack as `cdk deploy -c env=sandbox` with `context` builds it, without bundling its functions. */
function unbundledSandbox(context: Record<string, string>): VerificationApiStack {
  const app = new App({ context: { ...cdkJson.context, env: "sandbox", "aws:cdk:bundling-stacks": [], ...context } });
  return defineApp(app, {});
}

/** The logical id of the one queue whose id starts with `prefix`. */
function queueIdStartingWith(template: Template, prefix: string): string {
  const ids = Object.keys(template.findResources("AWS::SQS::Queue")).filter((id) => id.startsWith(prefix));
  expect(ids).toHaveLength(1);
  return ids[0] ?? "";
}

function usagePlanId(template: Template): string {
  const [id] = Object.keys(template.findResources("AWS::ApiGateway::UsagePlan"));
  return id ?? "";
}

function sealingKeyId(template: Template): string {
  const [id] = Object.entries(template.findResources("AWS::KMS::Key")).find(([, key]) =>
    String(key.Properties.Description ?? "").startsWith("Seals webhook signing secrets"),
  ) ?? [""];
  return id;
}

/**
 * Every action a key policy can allow on a symmetric encryption key, to expand a policy's
 * wildcards against (`kms:Get*`, `kms:Create*`).
 */
const KEY_ACTIONS = [
  "kms:CancelKeyDeletion",
  "kms:CreateAlias",
  "kms:CreateGrant",
  "kms:Decrypt",
  "kms:DeleteAlias",
  "kms:DeleteImportedKeyMaterial",
  "kms:DescribeKey",
  "kms:DisableKey",
  "kms:DisableKeyRotation",
  "kms:EnableKey",
  "kms:EnableKeyRotation",
  "kms:Encrypt",
  "kms:GenerateDataKey",
  "kms:GenerateDataKeyPair",
  "kms:GenerateDataKeyPairWithoutPlaintext",
  "kms:GenerateDataKeyWithoutPlaintext",
  "kms:GetKeyPolicy",
  "kms:GetKeyRotationStatus",
  "kms:GetParametersForImport",
  "kms:ImportKeyMaterial",
  "kms:ListGrants",
  "kms:ListKeyPolicies",
  "kms:ListKeyRotations",
  "kms:ListResourceTags",
  "kms:PutKeyPolicy",
  "kms:ReEncryptFrom",
  "kms:ReEncryptTo",
  "kms:ReplicateKey",
  "kms:RetireGrant",
  "kms:RevokeGrant",
  "kms:RotateKeyOnDemand",
  "kms:ScheduleKeyDeletion",
  "kms:TagResource",
  "kms:UntagResource",
  "kms:UpdateAlias",
  "kms:UpdateKeyDescription",
  "kms:UpdatePrimaryRegion",
];

/** Whether a policy statement's actions (wildcards expanded, case aside, as IAM matches them) take in `action`. */
function allows(statement: Json, action: string): boolean {
  // KMS actions are letters after `kms:`; `*` is the one wildcard a key policy here uses.
  return [statement.Action]
    .flat()
    .some((pattern) => new RegExp(`^${String(pattern).replaceAll("*", "[A-Za-z]*")}$`, "i").test(action));
}

/** A statement's AWS principals, each as JSON (an ARN, a `Fn::GetAtt` of a role, or `*`). */
function principalsOf(statement: Json): string[] {
  const principal = statement.Principal;
  if (principal === "*") return [JSON.stringify("*")];
  return [(principal as { AWS?: unknown } | undefined)?.AWS]
    .flat()
    .filter((entry) => entry !== undefined)
    .map((entry) => JSON.stringify(entry));
}

/**
 * The principals a key policy lets take `action` (as JSON, sorted): those an Allow names, none
 * where an unconditional Deny for every principal takes the action in.
 */
function whoMay(policy: Json[], action: string): string[] {
  const denied = policy.some(
    (statement) =>
      statement.Effect === "Deny" &&
      statement.Condition === undefined &&
      principalsOf(statement).includes(JSON.stringify("*")) &&
      allows(statement, action),
  );
  if (denied) return [];
  return [
    ...new Set(
      policy
        .filter((statement) => statement.Effect === "Allow" && allows(statement, action))
        .flatMap((statement) => principalsOf(statement)),
    ),
  ].sort();
}

/** The role operators assume. */
function operatorRoleId(template: Template): string {
  const ids = Object.entries(template.findResources("AWS::IAM::Role"))
    .filter(([, role]) => String(role.Properties.Description ?? "").startsWith("Runs the ops command"))
    .map(([id]) => id);
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

function secretId(template: Template): string {
  return Object.keys(template.findResources("AWS::SecretsManager::Secret")).find((id) =>
    id.startsWith("SecretsKey"),
  ) as string;
}

/** The one resource of `type` whose logical id starts with `prefix` (the construct's path). */
function onlyResource(template: Template, type: string, prefix: string): string {
  const ids = Object.keys(template.findResources(type)).filter((id) => id.startsWith(prefix));
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

const staffPoolId = (template: Template) => onlyResource(template, "AWS::Cognito::UserPool", "StaffPool");
const staffClientId = (template: Template) => onlyResource(template, "AWS::Cognito::UserPoolClient", "StaffPool");
const portalPoolId = (template: Template) => onlyResource(template, "AWS::Cognito::UserPool", "CustomersPool");
const portalClientId = (template: Template) => onlyResource(template, "AWS::Cognito::UserPoolClient", "CustomersPool");

/** What a web page's client of a pool must be. */
function pageClient(poolId: string): Json {
  return {
    UserPoolId: { Ref: poolId },
    ExplicitAuthFlows: ["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
    GenerateSecret: false,
    AllowedOAuthFlowsUserPoolClient: false,
    SupportedIdentityProviders: ["COGNITO"],
    PreventUserExistenceErrors: "ENABLED",
    EnableTokenRevocation: true,
    AccessTokenValidity: 60,
    IdTokenValidity: 60,
    RefreshTokenValidity: 12 * 60,
    TokenValidityUnits: { AccessToken: "minutes", IdToken: "minutes", RefreshToken: "minutes" },
  };
}

function secretIdStartingWith(template: Template, prefix: string): string {
  return Object.keys(template.findResources("AWS::SecretsManager::Secret")).find((id) =>
    id.startsWith(prefix),
  ) as string;
}

/** Asset hashes change with every edit of a function; the snapshot is about the template. */
function normalizeTemplate(template: Json): Json {
  return JSON.parse(JSON.stringify(template).replace(/[0-9a-f]{64}/g, "<asset-hash>"));
}

describe("the environment", () => {
  it("is chosen with -c env= and refused unless it is sandbox or production", () => {
    expect(environmentFromContext("sandbox")).toBe("sandbox");
    expect(environmentFromContext("production")).toBe("production");
    expect(() => environmentFromContext(undefined)).toThrow(/-c env=sandbox\|production \(got nothing\)/);
    expect(() => environmentFromContext("staging")).toThrow(/got "staging"/);
    expect(() => defineApp(new App({ context: { ...cdkJson.context, env: "prod" } }), {})).toThrow(/-c env=/);
  });

  it("takes account and region from context first, then from the CDK CLI's variables, else none", () => {
    const variables = { CDK_DEFAULT_ACCOUNT: "210987654321", CDK_DEFAULT_REGION: "us-east-1" };
    expect(deploymentTarget({ account: ACCOUNT, region: REGION }, variables)).toEqual({
      account: ACCOUNT,
      region: REGION,
    });
    expect(deploymentTarget({}, variables)).toEqual({ account: "210987654321", region: "us-east-1" });
    expect(deploymentTarget({}, {})).toEqual({});
    const agnostic = defineApp(
      new App({ context: { ...cdkJson.context, env: "sandbox", "aws:cdk:bundling-stacks": [] } }),
      {},
    );
    expect(agnostic.environment).toBe("aws://unknown-account/unknown-region");
  });

  it("asks e-Devlet itself in production by default, and another issuer, or none, only as -c issuer= says", () => {
    const production = (context: Record<string, unknown>) =>
      defineApp(
        new App({
          context: {
            ...cdkJson.context,
            env: "production",
            account: ACCOUNT,
            region: REGION,
            "aws:cdk:bundling-stacks": [],
            ...context,
          },
        }),
        {},
      );
    const askerOf = (stack: VerificationApiStack) =>
      Template.fromStack(stack).findResources("AWS::Lambda::Function")[functionId(stack, "ask-issuer")]?.Properties
        .Environment.Variables as Json;

    const byDefault = production({});
    expect(byDefault.functions.has("edevlet-simulator")).toBe(false);
    expect(askerOf(byDefault)).toMatchObject({ ISSUER: "edevlet", EDEVLET_PROTOCOL: "form" });
    expect(askerOf(byDefault)).not.toHaveProperty("EDEVLET_URL");
    expect(askerOf(production({ issuer: "edevlet", edevletProtocol: "mobile" }))).toMatchObject({
      ISSUER: "edevlet",
      EDEVLET_PROTOCOL: "mobile",
    });
    expect(askerOf(production({ issuer: "none" }))).toMatchObject({ ISSUER: "none" });

    const secretArn = `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:issuer-token-AbCdEf`;
    const lookup = production({
      issuer: "lookup",
      authorityUrl: "https://issuer.example.com",
      authoritySecretArn: secretArn,
    });
    expect(askerOf(lookup)).toMatchObject({
      ISSUER: "lookup",
      AUTHORITY_URL: "https://issuer.example.com",
      AUTHORITY_SECRET_ARN: secretArn,
    });
    // A stack deployed before e-Devlet named its integration with the two values alone.
    expect(
      askerOf(production({ authorityUrl: "https://issuer.example.com", authoritySecretArn: secretArn })),
    ).toMatchObject({
      ISSUER: "lookup",
    });
    expect(() => production({ issuer: "lookup", authorityUrl: "https://issuer.example.com" })).toThrow(
      /authoritySecretArn/,
    );
    expect(() => production({ issuer: "simulator" })).toThrow(/Production never asks the simulator/);
    expect(() => production({ issuer: "edevlet", authorityUrl: "https://issuer.example.com" })).toThrow(
      /issuer=lookup only/,
    );
    expect(() => production({ edevletProtocol: "soap" })).toThrow(/edevletProtocol/);
    expect(() => production({ issuerConcurrency: "1" })).toThrow(/issuerConcurrency/);
    const wider = Template.fromStack(production({ issuerConcurrency: "8" }));
    wider.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      BatchSize: ISSUER_QUEUE.batchSize,
      ScalingConfig: { MaximumConcurrency: 8 },
    });
  });

  it("upgrades a deployed stack one index per table per deploy with -c indexStep, and creates a new one with all", () => {
    const indexesAt = (step?: number) => {
      const template = Template.fromStack(unbundledSandbox(step === undefined ? {} : { indexStep: String(step) }));
      return Object.fromEntries(
        TABLES.map((table) => {
          const resource = template.findResources("AWS::DynamoDB::Table")[tableId(template, table.setting)];
          const indexes = (resource?.Properties.GlobalSecondaryIndexes ?? []) as { IndexName: string }[];
          return [table.id, indexes.map((index) => index.IndexName)];
        }),
      );
    };
    const steps = [0, 1, 2].map(indexesAt);
    const all = indexesAt();
    for (const table of TABLES) {
      expect(all[table.id]).toEqual(table.globalIndexes.map((index) => index.indexName));
      // From one step to the next, each table gains at most one index and loses none.
      let previous: string[] = steps[0]?.[table.id] ?? [];
      for (const step of [...steps.slice(1), all]) {
        const now = step[table.id] ?? [];
        expect(now.slice(0, previous.length)).toEqual(previous);
        expect(now.length - previous.length).toBeLessThanOrEqual(1);
        previous = now;
      }
    }
    // Step 0 is the set the stack had before organisations, lists and usage.
    expect(steps[0]?.Apps).toEqual(["keys_by_app"]);
    expect(steps[0]?.Verifications).toEqual(["awaiting_by_deadline", "in_review_by_deadline"]);
    expect(() => indexesAt(-1)).toThrow(/indexStep/);
  });

  it("with -c appLimits=prepare makes the usage plan and lets new apps into it, but asks no request for a key yet", () => {
    const publicApiAt = (appLimits?: string) => {
      const stack = unbundledSandbox(appLimits === undefined ? {} : { appLimits });
      const template = Template.fromStack(stack);
      const methods = Object.values(
        template.findResources("AWS::ApiGateway::Method", {
          Properties: { RestApiId: { Ref: apiId(stack, "public") } },
        }),
      ).map((method) => method.Properties);
      return {
        plans: Object.keys(template.findResources("AWS::ApiGateway::UsagePlan")).length,
        keySource: template.toJSON().Resources[apiId(stack, "public")].Properties.ApiKeySourceType,
        keyRequired: methods.filter((method) => method.ApiKeyRequired === true).length,
        authorized: methods.filter((method) => method.AuthorizationType === "CUSTOM").length,
      };
    };
    const prepared = publicApiAt("prepare");
    expect(prepared).toMatchObject({ plans: 1, keySource: undefined, keyRequired: 0 });
    const enforced = publicApiAt();
    expect(enforced).toMatchObject({ plans: 1, keySource: "AUTHORIZER" });
    expect(enforced.keyRequired).toBe(enforced.authorized);
    expect(() => publicApiAt("later")).toThrow(/appLimits/);
  });

  it("refuses to deploy a function whose required setting has no value in AWS, and leaves optional ones unset", () => {
    expect(functionEnvironment(["ENVIRONMENT"], { ENVIRONMENT: "sandbox" })).toEqual({ ENVIRONMENT: "sandbox" });
    expect(
      functionEnvironment(["ENVIRONMENT", "DYNAMODB_ENDPOINT", "IDENTITY_ENDPOINT", "S3_ENDPOINT"], {
        ENVIRONMENT: "sandbox",
      }),
    ).toEqual({ ENVIRONMENT: "sandbox" });
    expect(() => functionEnvironment(["ENVIRONMENT", "WEB_ASSETS"], { ENVIRONMENT: "sandbox" })).toThrow(
      "Setting WEB_ASSETS has no value in the deployed stack",
    );
    expect(() => functionEnvironment(["STAFF_USER_POOL_ID"], {})).toThrow(/STAFF_USER_POOL_ID/);
  });
});

/** Bundling every function (esbuild, the reader's thread, the console's pages) takes a minute or more. */
const BUNDLING_TIMEOUT_MS = 300_000;

describe("the bundles", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  it(
    "are minified with source maps, one per function, and load as the handler module",
    () => {
      const { stack, template, app } = synth("sandbox", { bundle: true });
      const outdir = app.outdir;
      const functions = template.findResources("AWS::Lambda::Function");
      for (const [name, definition] of allEntries) {
        const key = functions[functionId(stack, name)]?.Properties.Code.S3Key as string;
        const folder = path.join(outdir, `asset.${key.replace(/\.zip$/, "")}`);
        const bundle = path.join(folder, "index.js");
        expect(existsSync(bundle), name).toBe(true);
        expect(existsSync(`${bundle}.map`), name).toBe(true);
        // Minified: an unminified bundle has a line every few dozen bytes, this one every few kilobytes.
        const text = readFileSync(bundle, "utf8");
        const lines = text.split("\n").length;
        expect(lines, name).toBeLessThan(statSync(bundle).size / 2000);
        // zod's functional API only (shared/domain/zod.ts): classic zod would add some 400 KB to every cold start.
        expect(text.includes('"ZodType"'), name).toBe(false);
        // package.json's sideEffects keeps shared/domain/zod.ts, which loads zod's English messages.
        if (text.includes('"ZodMiniType"')) expect(text.includes("Too big: expected"), name).toBe(true);
        if (definition.access.simulator) {
          // The e-Devlet simulator ships the published test certificates it answers from.
          expect(existsSync(path.join(folder, "issuer/YOK_STUDENT/TESTYOK-0001-AKTIF.pdf")), name).toBe(true);
        }
        if (definition.settings.includes("WEB_ASSETS")) {
          // A function that serves the web pages ships them built.
          for (const file of [
            "backoffice/index.html",
            "backoffice/console.js",
            "backoffice/console.css",
            "portal/index.html",
            "portal/portal.js",
            "portal/portal.css",
          ]) {
            expect(existsSync(path.join(folder, "web", file)), `${name}: ${file}`).toBe(true);
          }
        }

        // What the function finds in AWS: its settings with values there, in their formats.
        const samples: Partial<Record<SettingName, string>> = {
          ENVIRONMENT: "sandbox",
          VERIFICATION_RETENTION_DAYS: "365",
          STAFF_USER_POOL_ID: `${REGION}_TestPool01`,
          PORTAL_USER_POOL_ID: `${REGION}_TestPool02`,
          WEB_ASSETS: path.join(folder, "web"),
          DELIVERY_QUEUE_URL: `https://sqs.${REGION}.amazonaws.com/123456789012/test-deliveries`,
          ISSUER_QUEUE_URL: `https://sqs.${REGION}.amazonaws.com/123456789012/test-lookups`,
          ISSUER: "edevlet",
          EDEVLET_PROTOCOL: "form",
          ISSUER_RETRY_WINDOW_S: "900",
          EDEVLET_URL: "https://edevlet.example.test",
          EDEVLET_MOBILE_URL: "https://edevlet.example.test",
        };
        Object.assign(
          process.env,
          Object.fromEntries(
            definition.settings
              .filter(
                (setting) =>
                  !LOCAL_ONLY_SETTINGS.includes(setting) &&
                  (!CHOSEN_ISSUER_SETTINGS.includes(setting) || samples[setting] !== undefined),
              )
              .map((setting) => [setting, samples[setting] ?? `test-${setting}`]),
          ),
          { AWS_REGION: REGION },
        );
        // Node itself loads it, as Lambda does: the CommonJS bundle must export `handler`.
        const module = createRequire(import.meta.url)(bundle) as { handler?: unknown };
        expect(typeof module.handler, name).toBe("function");
      }
    },
    BUNDLING_TIMEOUT_MS,
  );
});

describe.each(ENVIRONMENTS)("the %s pipeline", (environment) => {
  const { stack, template } = built[environment];

  it("feeds the change stream to the consumer: filtered, retried, bisected, with report of failed items and a failure queue", () => {
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      FunctionName: { Ref: functionId(stack, "on-verification-change") },
      EventSourceArn: { "Fn::GetAtt": [tableId(template, "VERIFICATIONS_TABLE"), "StreamArn"] },
      StartingPosition: "TRIM_HORIZON",
      BatchSize: CHANGE_STREAM_READING.batchSize,
      ParallelizationFactor: CHANGE_STREAM_READING.parallelizationFactor,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      FunctionResponseTypes: ["ReportBatchItemFailures"],
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify(CHANGE_STREAM_FILTER) }] },
    });
    template.hasResourceProperties("AWS::SQS::Queue", { SqsManagedSseEnabled: true });
  });

  /**
   * The queue of `definition` read by its function as declared, at most `concurrency` batches at
   * once, with its failure queue behind it; a message is hidden longer than its reader may run, so
   * no message is taken twice at once. The queue's logical id.
   */
  function expectQueueRead(definition: QueueDefinition, concurrency: number): string {
    const queue = queueIdStartingWith(template, `${definition.id}Queue`);
    const failures = queueIdStartingWith(template, `${definition.id}Failures`);
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      FunctionName: { Ref: functionId(stack, definition.consumer) },
      EventSourceArn: { "Fn::GetAtt": [queue, "Arn"] },
      BatchSize: definition.batchSize,
      ScalingConfig: { MaximumConcurrency: concurrency },
    });
    expect(template.toJSON().Resources[queue].Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: definition.visibilityTimeoutSeconds,
      RedrivePolicy: {
        deadLetterTargetArn: { "Fn::GetAtt": [failures, "Arn"] },
        maxReceiveCount: definition.maxReceiveCount,
      },
    });
    const reader = template.findResources("AWS::Lambda::Function")[functionId(stack, definition.consumer)];
    expect(definition.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(3 * reader?.Properties.Timeout);
    return queue;
  }

  it("feeds the delivery queue to its reader in batches, with a failure queue behind it", () => {
    const queue = expectQueueRead(DELIVERY_QUEUE, DELIVERY_QUEUE.maxConcurrency);
    // Only the change stream's consumer sends to it.
    const consumer = template.findResources("AWS::Lambda::Function")[functionId(stack, "on-verification-change")];
    expect(consumer?.Properties.Environment.Variables.DELIVERY_QUEUE_URL).toEqual({ Ref: queue });
  });

  it("feeds the issuer queue to its reader one message at a time, at most the stage's issuer concurrency at once", () => {
    expect(ISSUER_QUEUE.batchSize).toBe(1);
    expectQueueRead(ISSUER_QUEUE, ISSUER_QUEUE.maxConcurrency);
    // A lookup that stopped half way is taken over only once its hold on the verification lapsed.
    expect(ISSUER_QUEUE.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(LOOKUP_LEASE_SECONDS);
    // The processing functions reach e-Devlet as they are: none runs in a VPC.
    for (const fn of Object.values(template.findResources("AWS::Lambda::Function"))) {
      expect(fn.Properties).not.toHaveProperty("VpcConfig");
    }
  });

  it("alarms on unrecognised issuer answers past 5 % of 15 minutes' lookups, and on verifications sent to review for want of an answer", () => {
    const alarms = Object.values(template.findResources("AWS::CloudWatch::Alarm")).map((alarm) => alarm.Properties);
    const unrecognised = alarms.find((alarm) => String(alarm.AlarmDescription).includes("does not recognise"));
    expect(unrecognised).toMatchObject({
      Threshold: 5,
      ComparisonOperator: "GreaterThanThreshold",
      EvaluationPeriods: 1,
    });
    const metrics = unrecognised?.Metrics as Json[];
    expect(metrics.find((metric) => metric.Expression)?.Expression).toBe(
      "IF(total >= 10, 100 * unrecognised / total, 0)",
    );
    expect(metrics.filter((metric) => metric.MetricStat)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Id: "unrecognised",
          MetricStat: expect.objectContaining({
            Period: 900,
            Metric: expect.objectContaining({
              MetricName: ISSUER_LOOKUPS_METRIC,
              Namespace: metricsNamespace(environment),
              Dimensions: [{ Name: LOOKUP_OUTCOME_DIMENSION, Value: "unavailable_unrecognised" }],
            }),
          }),
        }),
        expect.objectContaining({
          Id: "total",
          MetricStat: expect.objectContaining({
            Metric: { MetricName: ISSUER_LOOKUPS_METRIC, Namespace: metricsNamespace(environment) },
          }),
        }),
      ]),
    );
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      Namespace: metricsNamespace(environment),
      MetricName: ISSUER_UNAVAILABLE_REVIEWS_METRIC,
      Period: 900,
      Threshold: environment === "production" ? 3 : 20,
    });
  });

  it("runs the tick every minute, and only EventBridge may invoke it", () => {
    template.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "rate(1 minute)",
      Targets: [Match.objectLike({ Arn: { "Fn::GetAtt": [functionId(stack, "tick"), "Arn"] } })],
    });
    const invokers = Object.values(template.findResources("AWS::Lambda::Permission"))
      .map((permission) => permission.Properties)
      .filter((permission) => permission.Principal === "events.amazonaws.com");
    // Once for the tick's schedule, once for the canary's; the sealer's schedule alone invokes it.
    expect(invokers.map((permission) => permission.FunctionName["Fn::GetAtt"][0]).sort()).toEqual(
      [functionId(stack, "tick"), functionId(stack, "tick"), functionId(stack, "seal-audit")].sort(),
    );
  });

  it("seals the audit trail every 5 minutes with a P-256 key only the sealer may sign with, and alarms when a month does not agree", () => {
    template.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "rate(5 minutes)",
      Targets: [Match.objectLike({ Arn: { "Fn::GetAtt": [functionId(stack, "seal-audit"), "Arn"] } })],
    });
    const keys = template.findResources("AWS::KMS::Key", { Properties: { KeySpec: "ECC_NIST_P256" } });
    const [key] = Object.values(keys);
    expect(key?.Properties.KeyUsage).toBe("SIGN_VERIFY");
    const statements = key?.Properties.KeyPolicy.Statement as Json[];
    const roleOf = (name: string) =>
      template.findResources("AWS::Lambda::Function")[functionId(stack, name)]?.Properties.Role;
    const uses = (action: string) =>
      statements
        .filter((statement) => ([] as string[]).concat(statement.Action as string | string[]).includes(action))
        .map((statement) => statement.Principal);
    expect(uses("kms:Sign")).toEqual([{ AWS: roleOf("seal-audit") }]);
    expect(uses("kms:GetPublicKey")).toEqual([
      { AWS: { "Fn::GetAtt": [expect.stringMatching(/^OperatorsRole/), "Arn"] } },
    ]);
    expect(uses("kms:*")).toEqual([]);
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      Namespace: metricsNamespace(environment),
      MetricName: AUDIT_TRAIL_BROKEN_METRIC,
      Threshold: 1,
    });
  });

  it("runs the e-Devlet canary every 15 minutes through the tick, and alarms when it fails", () => {
    template.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "rate(15 minutes)",
      Targets: [
        Match.objectLike({
          Arn: { "Fn::GetAtt": [functionId(stack, "tick"), "Arn"] },
          Input: JSON.stringify({ canary: true }),
        }),
      ],
    });
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      Namespace: metricsNamespace(environment),
      MetricName: EDEVLET_CANARY_FAILED_METRIC,
      Threshold: 1,
      Period: 900,
    });
  });

  it("alarms on parked webhook events and on changes that failed every retry", () => {
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      Namespace: metricsNamespace(environment),
      MetricName: PARKED_EVENTS_METRIC,
      Threshold: 1,
    });
    // And on each document the tick removed because it was put back after an erasure.
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      Namespace: metricsNamespace(environment),
      MetricName: UPLOADS_AFTER_ERASURE_METRIC,
      Threshold: 1,
    });
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "ApproximateNumberOfMessagesVisible",
      Namespace: "AWS/SQS",
    });
  });
});
