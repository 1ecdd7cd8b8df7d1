import type { Stage } from "aws-cdk-lib/aws-apigateway";
import { CfnWebACL, CfnWebACLAssociation } from "aws-cdk-lib/aws-wafv2";
import { Construct } from "constructs";
import { EDGE_MAX_BODY_BYTES, EDGE_WINDOW_SECONDS, edgeLimits, MANAGED_RULE_GROUPS } from "#shared/declarations/edge";
import type { Environment } from "#shared/domain/environments";
import { PROBLEM_TYPE_PREFIX, PROBLEMS, type ProblemCode } from "#shared/http/problems";

/**
 * A problem body the ACL answers with. It is answered before API Gateway, so it has no request
 * id, and WAF sends it as `application/json` (a custom response cannot set its Content-Type):
 * the one kind of answer without `request_id` and `Request-Id`, given only to abuse.
 */
function edgeProblem(code: ProblemCode, detail: string): string {
  const { status, title } = PROBLEMS[code];
  return JSON.stringify({ type: `${PROBLEM_TYPE_PREFIX}${code}`, title, status, detail, code });
}

const visibility = (metricName: string) => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

/** The regional web ACL of an environment, associated with each of its API stages. */
export class EdgeAcl extends Construct {
  readonly acl: CfnWebACL;

  constructor(scope: Construct, id: string, props: { environment: Environment; stages: Stage[]; namePrefix: string }) {
    super(scope, id);
    const limits = edgeLimits(props.environment);
    const block = (
      bodyKey: "payloadTooLarge" | "rateLimited",
      status: number,
      headers: { name: string; value: string }[] = [],
    ) => ({
      block: {
        customResponse: {
          responseCode: status,
          customResponseBodyKey: bodyKey,
          ...(headers.length > 0 ? { responseHeaders: headers } : {}),
        },
      },
    });
    const rateLimited = block("rateLimited", 429, [{ name: "Retry-After", value: String(EDGE_WINDOW_SECONDS) }]);
    this.acl = new CfnWebACL(this, "Acl", {
      scope: "REGIONAL",
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`${props.namePrefix}-edge`),
      customResponseBodies: {
        payloadTooLarge: {
          contentType: "APPLICATION_JSON",
          content: edgeProblem("payload_too_large", `The request body must be at most ${EDGE_MAX_BODY_BYTES} bytes`),
        },
        rateLimited: {
          contentType: "APPLICATION_JSON",
          content: edgeProblem(
            "rate_limited",
            "Too many requests from this address or with this key; retry after the time in Retry-After",
          ),
        },
      },
      rules: [
        {
          name: "body-size",
          priority: 0,
          action: block("payloadTooLarge", 413),
          statement: {
            sizeConstraintStatement: {
              // A body past what the ACL inspects (16 KB for API Gateway) is over the limit too.
              fieldToMatch: { body: { oversizeHandling: "MATCH" } },
              comparisonOperator: "GT",
              size: EDGE_MAX_BODY_BYTES,
              textTransformations: [{ priority: 0, type: "NONE" }],
            },
          },
          visibilityConfig: visibility(`${props.namePrefix}-body-size`),
        },
        {
          name: "rate-per-source-ip",
          priority: 1,
          action: rateLimited,
          statement: {
            rateBasedStatement: {
              limit: limits.perSourceIp,
              evaluationWindowSec: EDGE_WINDOW_SECONDS,
              aggregateKeyType: "IP",
            },
          },
          visibilityConfig: visibility(`${props.namePrefix}-rate-ip`),
        },
        {
          name: "rate-per-api-key",
          priority: 2,
          action: rateLimited,
          statement: {
            rateBasedStatement: {
              limit: limits.perApiKey,
              evaluationWindowSec: EDGE_WINDOW_SECONDS,
              aggregateKeyType: "CUSTOM_KEYS",
              customKeys: [{ header: { name: "x-api-key", textTransformations: [{ priority: 0, type: "NONE" }] } }],
            },
          },
          visibilityConfig: visibility(`${props.namePrefix}-rate-key`),
        },
        ...MANAGED_RULE_GROUPS.map((group, index) => ({
          name: group.name,
          priority: 10 + index,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: "AWS",
              name: group.name,
              ...(group.countOnly.length > 0
                ? { ruleActionOverrides: group.countOnly.map((name) => ({ name, actionToUse: { count: {} } })) }
                : {}),
            },
          },
          visibilityConfig: visibility(`${props.namePrefix}-${group.name}`),
        })),
      ],
    });
    props.stages.forEach((stage, index) => {
      new CfnWebACLAssociation(this, `Association${index}`, {
        resourceArn: stage.stageArn,
        webAclArn: this.acl.attrArn,
      });
    });
  }
}
