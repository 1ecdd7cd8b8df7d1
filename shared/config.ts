import { z } from "zod";

export const ENVIRONMENTS = ["sandbox", "production"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** The CloudFormation stack of an environment: the CDK app names it, the ops command reads it. */
export function stackName(environment: Environment): string {
  return `VerificationApi-${environment}`;
}

/**
 * Every setting a function may read from its environment. Each function picks the ones
 * it uses, so a missing variable fails at cold start, not in the middle of a request.
 */
const settings = {
  ENVIRONMENT: z.enum(ENVIRONMENTS),
  APPS_TABLE: z.string().min(1),
  VERIFICATIONS_TABLE: z.string().min(1),
  IDEMPOTENCY_TABLE: z.string().min(1),
  EVENTS_TABLE: z.string().min(1),
  UPLOADS_BUCKET: z.string().min(1),
  /** Key material that seals webhook secrets at rest (see SecretBox): at least 32 characters. */
  SECRETS_KEY: z.string().min(32).optional(),
  /** In AWS: the Secrets Manager secret that holds that key material, read at cold start. */
  SECRETS_KEY_ARN: z.string().min(1).optional(),
  /** Local engines only: in AWS the SDK finds the regional endpoints itself. */
  DYNAMODB_ENDPOINT: z.url().optional(),
  S3_ENDPOINT: z.url().optional(),
};

export type SettingName = keyof typeof settings;
type Picked<K extends SettingName> = z.infer<z.ZodObject<Pick<typeof settings, K>>>;

export function readConfig<K extends SettingName>(
  names: readonly K[],
  source: NodeJS.ProcessEnv = process.env,
): Picked<K> {
  const schema = z.object(Object.fromEntries(names.map((name) => [name, settings[name]])) as Pick<typeof settings, K>);
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data as Picked<K>;
}
