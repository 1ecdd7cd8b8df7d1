/**
 * The web ACL in front of every API stage: what it refuses before API Gateway sees a request.
 * Its limits follow the contract's stage rates, so no single source address or API key can
 * take the whole of a stage's share, and junk keys from one address are stopped at the edge.
 */
import type { Environment } from "../domain/environments.ts";
import { MAX_BODY_BYTES } from "../http/edges.ts";
import { STAGE_THROTTLING } from "./routes.ts";

/** WAF counts rate-based rules over a window of this many seconds. */
export const EDGE_WINDOW_SECONDS = 60;

/**
 * Requests per window: from one source address at most 60 % of what the stage lets through
 * in a window, and with one `X-API-Key` value at most 40 %.
 */
export function edgeLimits(environment: Environment): { perSourceIp: number; perApiKey: number } {
  const perWindow = STAGE_THROTTLING[environment].rateLimit * EDGE_WINDOW_SECONDS;
  return { perSourceIp: Math.round(perWindow * 0.6), perApiKey: Math.round(perWindow * 0.4) };
}

/** A body over this is refused at the edge (413), on every route. */
export const EDGE_MAX_BODY_BYTES = MAX_BODY_BYTES;

/**
 * The AWS managed rule groups the ACL runs after its own rules. Two rules of the common set are
 * only counted: its 8 KB body limit is below the contract's 16 KiB (the ACL's own rule holds
 * that), and customer backends may send no User-Agent.
 */
export const MANAGED_RULE_GROUPS = [
  { name: "AWSManagedRulesAmazonIpReputationList", countOnly: [] },
  { name: "AWSManagedRulesKnownBadInputsRuleSet", countOnly: [] },
  { name: "AWSManagedRulesCommonRuleSet", countOnly: ["SizeRestrictions_BODY", "NoUserAgent_HEADER"] },
] as const;
