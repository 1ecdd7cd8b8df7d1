import { type App, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { stackName } from "#shared/declarations/stack";
import type { Environment } from "#shared/domain/environments";
import { EDEVLET_PROTOCOLS, type EdevletProtocol } from "#shared/domain/issuer";
import { deploymentTarget, ENVIRONMENT_CONFIGS, environmentFromContext } from "./config.ts";
import { type IssuerChoice, VerificationApiStack } from "./verification-api-stack.ts";

/**
 * The issuer processing asks, from `-c issuer=`: `edevlet` (e-Devlet itself; production's
 * default), `simulator` (the stack's own e-Devlet simulator; the sandbox's default, never
 * production's), `lookup` with `-c authorityUrl=https://… -c authoritySecretArn=arn:…` (an
 * integration on the issuer-lookup contract), or `none` (every verification that needs the
 * issuer goes to review). `-c edevletProtocol=form|mobile` picks e-Devlet's way in, `-c
 * issuerConcurrency=N` the lookups in flight at once.
 */
function issuerFromContext(app: App, environment: Environment): { issuer: IssuerChoice; issuerConcurrency?: number } {
  const context = (key: string): unknown => app.node.tryGetContext(key);
  const url = context("authorityUrl");
  const secretArn = context("authoritySecretArn");
  // A stack deployed before e-Devlet was asked named its integration with these two alone.
  const chosen =
    context("issuer") ?? (url !== undefined ? "lookup" : environment === "sandbox" ? "simulator" : "edevlet");
  const concurrency = context("issuerConcurrency");
  const issuerConcurrency = concurrency === undefined ? undefined : Number(concurrency);
  if (
    issuerConcurrency !== undefined &&
    !(Number.isInteger(issuerConcurrency) && issuerConcurrency >= 2 && issuerConcurrency <= 1000)
  ) {
    throw new Error(
      "-c issuerConcurrency= takes a whole number from 2 to 1000 (the least an SQS event source allows is 2)",
    );
  }
  const limit = issuerConcurrency === undefined ? {} : { issuerConcurrency };
  if (chosen === "lookup") {
    if (typeof url !== "string" || !url.startsWith("https://") || typeof secretArn !== "string") {
      throw new Error("-c issuer=lookup needs both -c authorityUrl=https://… and -c authoritySecretArn=arn:…");
    }
    return { issuer: { kind: "lookup", url, secretArn }, ...limit };
  }
  if (url !== undefined || secretArn !== undefined) {
    throw new Error("-c authorityUrl and -c authoritySecretArn go with -c issuer=lookup only");
  }
  if (chosen === "none") return { issuer: { kind: "none" }, ...limit };
  const protocol = context("edevletProtocol") ?? "form";
  if (!EDEVLET_PROTOCOLS.includes(protocol as EdevletProtocol)) {
    throw new Error(`-c edevletProtocol= takes ${EDEVLET_PROTOCOLS.join(" or ")}`);
  }
  if (chosen === "simulator" && environment === "production") {
    throw new Error(
      "Production never asks the simulator, whose test certificates would verify: choose -c issuer=edevlet, lookup or none",
    );
  }
  if (chosen !== "edevlet" && chosen !== "simulator") {
    throw new Error("-c issuer= takes edevlet, simulator (sandbox only), lookup or none");
  }
  return { issuer: { kind: chosen, protocol: protocol as EdevletProtocol }, ...limit };
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
  const { issuer, issuerConcurrency } = issuerFromContext(app, environment);
  const config = ENVIRONMENT_CONFIGS[environment];
  const stack = new VerificationApiStack(app, stackName(environment), {
    config: issuerConcurrency ? { ...config, issuer: { ...config.issuer, concurrency: issuerConcurrency } } : config,
    issuer,
    ...indexStepFromContext(app),
    ...appLimitsFromContext(app),
    description: `Document verification API, ${environment}`,
    ...(target.account || target.region ? { env: target } : {}),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stack;
}
