import type { Environment } from "../domain/environments.ts";

/** The CloudFormation stack of an environment: the CDK app names it, the ops command reads it. */
export function stackName(environment: Environment): string {
  return `VerificationApi-${environment}`;
}
