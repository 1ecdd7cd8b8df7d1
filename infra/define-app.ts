import { type App, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { stackName } from "#shared/declarations/stack";
import { deploymentTarget, ENVIRONMENT_CONFIGS, environmentFromContext } from "./config.ts";
import { VerificationApiStack } from "./verification-api-stack.ts";

/**
 * The issuer integration an operator points the stack at: `-c authorityUrl=https://…
 * -c authoritySecretArn=arn:aws:secretsmanager:…` (both, or neither).
 */
function issuerFromContext(app: App): { issuer?: { url: string; secretArn: string } } {
  const url: unknown = app.node.tryGetContext("authorityUrl");
  const secretArn: unknown = app.node.tryGetContext("authoritySecretArn");
  if (url === undefined && secretArn === undefined) return {};
  if (typeof url !== "string" || !url.startsWith("https://") || typeof secretArn !== "string") {
    throw new Error("Set both -c authorityUrl=https://… and -c authoritySecretArn=arn:…, or neither");
  }
  return { issuer: { url, secretArn } };
}

/** `-c indexStep=N`: the upgrade step of the table indexes to deploy (see Deploy in the README). */
function indexStepFromContext(app: App): { indexStep?: number } {
  const step: unknown = app.node.tryGetContext("indexStep");
  if (step === undefined) return {};
  const value = Number(step);
  if (!Number.isInteger(value) || value < 0) throw new Error("-c indexStep= takes a whole number: 0, 1, 2, ...");
  return { indexStep: value };
}

/**
 * `-c appLimits=prepare`: the first deploy of per-app request rates onto a stack that has apps
 * already. The usage plan is made and new apps get their keys in it, but requests do not need
 * one yet, so existing apps keep being served until `ops apps sync-limits` has given them theirs
 * (see Deploy in the README).
 */
function appLimitsFromContext(app: App): { appLimits?: "prepare" } {
  const value: unknown = app.node.tryGetContext("appLimits");
  if (value === undefined) return {};
  if (value !== "prepare") throw new Error("-c appLimits= takes only prepare; leave it out to enforce the rates");
  return { appLimits: value };
}

/**
 * The stack of the environment chosen with `-c env=sandbox|production`, checked by cdk-nag's
 * AwsSolutions pack: an unacknowledged finding fails the synth.
 */
export function defineApp(app: App, variables: NodeJS.ProcessEnv = process.env): VerificationApiStack {
  const environment = environmentFromContext(app.node.tryGetContext("env"));
  const target = deploymentTarget(
    { account: app.node.tryGetContext("account"), region: app.node.tryGetContext("region") },
    variables,
  );
  const stack = new VerificationApiStack(app, stackName(environment), {
    config: ENVIRONMENT_CONFIGS[environment],
    ...issuerFromContext(app),
    ...indexStepFromContext(app),
    ...appLimitsFromContext(app),
    description: `Document verification API, ${environment}`,
    ...(target.account || target.region ? { env: target } : {}),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stack;
}
