/**
 * The web ACL in front of every API stage: what it refuses before API Gateway sees a request.
 * Its limits follow the stage's and each app's rates, so no single source address or API key
 * can take the whole of a stage's share, and junk keys from one address are stopped at the edge.
 */
import type { Environment } from "../domain/environments.ts";
import { MAX_BODY_BYTES } from "../http/edges.ts";
import { PROBLEM_TYPE_PREFIX, PROBLEMS, type ProblemCode } from "../http/problems.ts";
import { APP_THROTTLING, STAGE_THROTTLING } from "./routes.ts";

/** WAF counts rate-based rules over a window of this many seconds. */
export const EDGE_WINDOW_SECONDS = 60;

/**
 * Requests per window: from one source address at most 60 % of what the stage lets through
 * in a window, and with one `X-API-Key` value twice what one app may send in a window. A key
 * past that is refused before its authorizer runs; below it, the app's own bucket (its usage
 * plan) answers first. So a junk flood from one address and one app's flood together leave
 * most of the stage to everyone else.
 */
export function edgeLimits(environment: Environment): { perSourceIp: number; perApiKey: number } {
  const stagePerWindow = STAGE_THROTTLING[environment].rateLimit * EDGE_WINDOW_SECONDS;
  const appPerWindow = APP_THROTTLING[environment].rateLimit * EDGE_WINDOW_SECONDS;
  return { perSourceIp: Math.round(stagePerWindow * 0.6), perApiKey: appPerWindow * 2 };
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

/**
 * A problem body the ACL answers with. It is answered before API Gateway, so it has no request
 * id, and WAF sends it as `application/json` (a custom response cannot set its Content-Type):
 * the one kind of answer without `request_id` and `Request-Id`, given only to abuse.
 */
function edgeProblem(code: ProblemCode, detail: string): string {
  const { status, title } = PROBLEMS[code];
  return JSON.stringify({ type: `${PROBLEM_TYPE_PREFIX}${code}`, title, status, detail, code });
}

/** What the ACL answers when it blocks, by the custom response body's key; the local gateway answers the same. */
export const EDGE_RESPONSES = {
  payloadTooLarge: {
    status: 413,
    body: edgeProblem("payload_too_large", `The request body must be at most ${EDGE_MAX_BODY_BYTES} bytes`),
    headers: {},
  },
  rateLimited: {
    status: 429,
    body: edgeProblem(
      "rate_limited",
      "Too many requests from this address or with this key; retry after the time in Retry-After",
    ),
    headers: { "Retry-After": String(EDGE_WINDOW_SECONDS) },
  },
} as const satisfies Record<string, { status: number; body: string; headers: Record<string, string> }>;
