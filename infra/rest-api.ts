import { Duration, type Stack, Validations } from "aws-cdk-lib";
import {
  AccessLogField,
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  EndpointType,
  type IAuthorizer,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  MockIntegration,
  PassthroughBehavior,
  RequestAuthorizer,
  RestApi,
  TokenAuthorizer,
  type UsagePlan,
} from "aws-cdk-lib/aws-apigateway";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { LogGroup } from "aws-cdk-lib/aws-logs";
import type { IDependable } from "constructs";
import { METHOD_NOT_ALLOWED } from "#shared/declarations/gateway-responses";
import {
  APIS,
  type ApiDefinition,
  type ApiName,
  methodsByPath,
  type RouteDefinition,
} from "#shared/declarations/routes";
import { PROBLEM_CONTENT_TYPE, problemBody } from "#shared/http/problems";
import { REQUEST_ID_HEADER } from "#shared/http/responses";
import type { EnvironmentConfig } from "./config.ts";
import { addGatewayResponses } from "./gateway-responses.ts";

/** What the stack names and says about each API's parts; the declaration says what they do. */
export interface ApiParts {
  /** Appended to the stack's name for the REST API's name. */
  nameSuffix: string;
  /** Construct ids of the parts that sit beside the REST API in the stack. */
  accessLogs: string;
  executionLogs: string;
  authorizer: string;
  /** Prefix of the API's alarm ids and of the metrics counted from its access log. */
  alarmPrefix: string;
  /** Appended to the API's alarm descriptions. */
  alarmSubject: string;
  /** The API, in its base URL's output description. */
  title: string;
  /** The authorizer, in alarm descriptions and acknowledgements. */
  authorizerTitle: string;
  /** The access log's field for the authorizer's principal: an app id, or a staff user's sub. */
  principalField: string;
  /** Why the API's methods do not use a Cognito user pool authorizer (cdk-nag's COG4). */
  noCognitoAuthorizer: string;
}

export const API_PARTS: Record<ApiName, ApiParts> = {
  // Named when it was the only API: a changed logical id would replace a deployed resource.
  public: {
    nameSuffix: "",
    accessLogs: "AccessLogs",
    executionLogs: "ExecutionLogs",
    authorizer: "ApiKeyAuthorizer",
    alarmPrefix: "",
    alarmSubject: "",
    title: "API",
    authorizerTitle: "API key authorizer",
    principalField: "appId",
    noCognitoAuthorizer:
      "Callers are customer backends with API keys, checked by the REQUEST authorizer, not Cognito users",
  },
  backoffice: {
    nameSuffix: "-backoffice",
    accessLogs: "BackofficeAccessLogs",
    executionLogs: "BackofficeExecutionLogs",
    authorizer: "StaffTokenAuthorizer",
    alarmPrefix: "Backoffice",
    alarmSubject: " on the backoffice API",
    title: "backoffice API",
    authorizerTitle: "staff token authorizer",
    principalField: "staffSub",
    noCognitoAuthorizer:
      "The staff pool's access tokens are checked by the TOKEN authorizer (aws-jwt-verify), which also allows only the routes the caller's groups may call and refuses a disabled or signed-out user; a Cognito user pool authorizer does neither. The console's page and asset routes have no authorizer at all",
  },
  portal: {
    nameSuffix: "-portal",
    accessLogs: "PortalAccessLogs",
    executionLogs: "PortalExecutionLogs",
    authorizer: "PortalTokenAuthorizer",
    alarmPrefix: "Portal",
    alarmSubject: " on the portal API",
    title: "portal API",
    authorizerTitle: "portal token authorizer",
    principalField: "portalSub",
    noCognitoAuthorizer:
      "The customer pool's access tokens are checked by the TOKEN authorizer (aws-jwt-verify), which also finds the caller's organisation and role, allows only the routes that role may call, and refuses a disabled or signed-out user; a Cognito user pool authorizer does none of that. The portal page's own files have no authorizer at all",
  },
};

export interface DeclaredApiProps {
  config: EnvironmentConfig;
  /** The deployed function of each name. */
  functionNamed: (name: string) => IFunction;
  /**
   * The account's API Gateway logging role, which one API sets up and the others wait for
   * (one role serves the whole account and region); undefined for the API that sets it up.
   */
  accountLogging?: IDependable;
  /** The usage plan an API whose callers are apps (`perApp`) throttles each app in. */
  usagePlan?: UsagePlan;
  /** Whether its requests need their app's key in the plan; not while existing apps are given theirs. */
  enforceAppLimits?: boolean;
}

export interface DeclaredApi {
  api: RestApi;
  accessLogs: LogGroup;
  /** The account's logging role, when this API set it up. */
  accountLogging?: IDependable;
}

/**
 * The REST API `name` of `APIS`, built from its declaration, its parts directly in `stack`:
 * the regional API and its stage (throttled, traced, with access and execution logs), its
 * authorizer, every declared route on its function, and its gateway responses.
 */
export function declaredApi(stack: Stack, name: ApiName, props: DeclaredApiProps): DeclaredApi {
  const definition: ApiDefinition = APIS[name];
  const parts = API_PARTS[name];
  const { config } = props;
  const setsUpAccountLogging = props.accountLogging === undefined;
  const perApp = definition.perApp !== undefined && props.enforceAppLimits !== false;

  const accessLogs = new LogGroup(stack, parts.accessLogs, {
    retention: config.logRetention,
    removalPolicy: config.removalPolicy,
  });
  const api = restApiOf(stack, name, props, { accessLogs, perApp, setsUpAccountLogging });
  addRoutes(stack, api, name, props, perApp);
  addGatewayResponses(api, definition.gatewayResponses);
  if (definition.perApp) {
    if (!props.usagePlan) throw new Error(`${definition.id} throttles each app: it needs the usage plan`);
    props.usagePlan.addApiStage({ stage: api.deploymentStage });
  }

  return { api, accessLogs, ...(setsUpAccountLogging ? { accountLogging: api.node.findChild("Account") } : {}) };
}

/** The REST API of `name` and its stage: throttled, traced, logged without bodies or headers. */
function restApiOf(
  stack: Stack,
  name: ApiName,
  props: DeclaredApiProps,
  {
    accessLogs,
    perApp,
    setsUpAccountLogging,
  }: { accessLogs: LogGroup; perApp: boolean; setsUpAccountLogging: boolean },
): RestApi {
  const definition: ApiDefinition = APIS[name];
  const parts = API_PARTS[name];
  const { config } = props;
  const environment = config.environment;
  const api = new RestApi(stack, definition.id, {
    restApiName: `${stack.stackName}${parts.nameSuffix}`,
    description: `${definition.description} (${environment})`,
    endpointTypes: [EndpointType.REGIONAL],
    // Every body reaches the functions base64-encoded, as sent: one that is not UTF-8 is told apart (400).
    binaryMediaTypes: ["*/*"],
    // Where callers are apps, the authorizer names each app's key in the usage plan; no request can.
    ...(perApp ? { apiKeySourceType: ApiKeySourceType.AUTHORIZER } : {}),
    // Execution logging needs the account's API Gateway CloudWatch role.
    cloudWatchRole: setsUpAccountLogging,
    deployOptions: {
      stageName: environment,
      throttlingRateLimit: config.throttling.rateLimit,
      throttlingBurstLimit: config.throttling.burstLimit,
      tracingEnabled: true,
      metricsEnabled: true,
      loggingLevel: MethodLoggingLevel.ERROR,
      // Never log bodies or headers: they carry API keys, access tokens and customer data.
      dataTraceEnabled: false,
      accessLogDestination: new LogGroupLogDestination(accessLogs),
      accessLogFormat: accessLogFormat(parts.principalField),
    },
  });
  // The stack's own base URL output replaces this one, which ends in a slash.
  api.node.tryRemoveChild("Endpoint");
  // API Gateway creates the execution log group itself, kept forever; creating it first sets its retention.
  const executionLogs = new LogGroup(stack, parts.executionLogs, {
    logGroupName: `API-Gateway-Execution-Logs_${api.restApiId}/${environment}`,
    retention: config.logRetention,
    removalPolicy: config.removalPolicy,
  });
  api.deploymentStage.node.addDependency(executionLogs);
  if (props.accountLogging) api.deploymentStage.node.addDependency(props.accountLogging);
  if (setsUpAccountLogging) {
    Validations.of(api).acknowledge({
      id: "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]",
      reason: "The account-level role API Gateway uses to write execution logs; AWS maintains its policy",
    });
  }
  Validations.of(api).acknowledge(
    {
      id: "AwsSolutions-APIG2",
      reason:
        "The handlers validate every request, so refusals carry the contract's problem+json codes (validation_failed, malformed_json, unsupported_media_type)",
    },
    { id: "AwsSolutions-COG4", reason: parts.noCognitoAuthorizer },
  );
  return api;
}

/** Each declared route of `name` on its function, behind the API's authorizer, and 405 for any other method of its path. */
function addRoutes(stack: Stack, api: RestApi, name: ApiName, props: DeclaredApiProps, perApp: boolean): void {
  const definition: ApiDefinition = APIS[name];
  const authorizer = declaredAuthorizer(stack, name, props.functionNamed(definition.authorizer.function));
  const routes: readonly RouteDefinition[] = definition.routes;
  for (const route of routes) {
    const integration = new LambdaIntegration(props.functionNamed(route.function), { allowTestInvoke: false });
    const resource = api.root.resourceForPath(route.path);
    if (route.authorization === "none") {
      const method = resource.addMethod(route.method, integration, { authorizationType: AuthorizationType.NONE });
      Validations.of(method).acknowledge({
        id: "AwsSolutions-APIG4",
        reason:
          "A web page and its script and style are public files holding no data; everything they show comes through the API's bearer-token routes",
      });
    } else {
      resource.addMethod(route.method, integration, {
        authorizer,
        authorizationType: AuthorizationType.CUSTOM,
        apiKeyRequired: perApp,
      });
    }
  }
  for (const [path, methods] of methodsByPath(routes)) {
    const method = api.root.resourceForPath(path).addMethod("ANY", methodNotAllowed(methods), {
      authorizationType: AuthorizationType.NONE,
      methodResponses: [
        {
          statusCode: "405",
          responseParameters: Object.fromEntries(
            ["Allow", "Content-Type", REQUEST_ID_HEADER].map((name) => [`method.response.header.${name}`, true]),
          ),
        },
      ],
    });
    Validations.of(method).acknowledge({
      id: "AwsSolutions-APIG4",
      reason:
        "Answers 405 with Allow by itself (a mock integration) for a method the path does not take; it reaches no function",
    });
  }
}

/**
 * The catch-all method of a declared path: any method but the declared ones (which API Gateway
 * matches first) is answered 405 with the path's methods in `Allow`, as problem+json.
 */
function methodNotAllowed(methods: readonly string[]): MockIntegration {
  const body = problemBody(METHOD_NOT_ALLOWED.code, METHOD_NOT_ALLOWED.detail, "$context.requestId");
  return new MockIntegration({
    // No request template: the mock answers its default integration response, whatever was sent.
    passthroughBehavior: PassthroughBehavior.WHEN_NO_MATCH,
    integrationResponses: [
      {
        statusCode: "405",
        responseParameters: {
          "method.response.header.Allow": `'${methods.join(", ")}'`,
          "method.response.header.Content-Type": `'${PROBLEM_CONTENT_TYPE}'`,
          [`method.response.header.${REQUEST_ID_HEADER}`]: "context.requestId",
        },
        responseTemplates: { "application/json": JSON.stringify(body) },
      },
    ],
  });
}

/** The API's authorizer as declared: REQUEST on a header, or TOKEN on one, cached as long as it says. */
function declaredAuthorizer(stack: Stack, name: ApiName, handler: IFunction): IAuthorizer {
  const declared = APIS[name].authorizer;
  const id = API_PARTS[name].authorizer;
  const resultsCacheTtl = Duration.seconds(declared.cacheTtlSeconds);
  if (declared.type === "REQUEST") {
    return new RequestAuthorizer(stack, id, {
      handler,
      identitySources: [IdentitySource.header(declared.identityHeader)],
      resultsCacheTtl,
    });
  }
  return new TokenAuthorizer(stack, id, {
    handler,
    identitySource: IdentitySource.header(declared.identityHeader),
    resultsCacheTtl,
  });
}

/** One JSON line per request; no header is logged, so no API key or token ever reaches the log. */
function accessLogFormat(principalField: string): AccessLogFormat {
  return AccessLogFormat.custom(
    JSON.stringify({
      requestId: AccessLogField.contextRequestId(),
      extendedRequestId: AccessLogField.contextExtendedRequestId(),
      requestTime: AccessLogField.contextRequestTime(),
      ip: AccessLogField.contextIdentitySourceIp(),
      userAgent: AccessLogField.contextIdentityUserAgent(),
      method: AccessLogField.contextHttpMethod(),
      resourcePath: AccessLogField.contextResourcePath(),
      path: AccessLogField.contextPath(),
      protocol: AccessLogField.contextProtocol(),
      status: AccessLogField.contextStatus(),
      responseLength: AccessLogField.contextResponseLength(),
      responseLatency: AccessLogField.contextResponseLatency(),
      integrationStatus: AccessLogField.contextIntegrationStatus(),
      integrationLatency: AccessLogField.contextIntegrationLatency(),
      [principalField]: AccessLogField.contextAuthorizerPrincipalId(),
      authorizerStatus: AccessLogField.contextAuthorizerStatus(),
      authorizerLatency: AccessLogField.contextAuthorizerLatency(),
      errorType: AccessLogField.contextErrorResponseType(),
      errorMessage: AccessLogField.contextErrorMessage(),
      xrayTraceId: AccessLogField.contextXrayTraceId(),
    }),
  );
}
