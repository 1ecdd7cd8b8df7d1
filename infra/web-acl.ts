import type { Stage } from "aws-cdk-lib/aws-apigateway";
import { CfnWebACL, CfnWebACLAssociation } from "aws-cdk-lib/aws-wafv2";
import { Construct } from "constructs";
import {
  EDGE_MAX_BODY_BYTES,
  EDGE_RESPONSES,
  EDGE_WINDOW_SECONDS,
  edgeLimits,
  MANAGED_RULE_GROUPS,
} from "#shared/declarations/edge";
import type { Environment } from "#shared/domain/environments";

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
    const block = (bodyKey: keyof typeof EDGE_RESPONSES) => {
      const { status, headers } = EDGE_RESPONSES[bodyKey];
      const responseHeaders = Object.entries(headers).map(([name, value]) => ({ name, value }));
      return {
        block: {
          customResponse: {
            responseCode: status,
            customResponseBodyKey: bodyKey,
            ...(responseHeaders.length > 0 ? { responseHeaders } : {}),
          },
        },
      };
    };
    const rateLimited = block("rateLimited");
    this.acl = new CfnWebACL(this, "Acl", {
      scope: "REGIONAL",
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`${props.namePrefix}-edge`),
      customResponseBodies: Object.fromEntries(
        Object.entries(EDGE_RESPONSES).map(([key, response]) => [
          key,
          { contentType: "APPLICATION_JSON", content: response.body },
        ]),
      ),
      rules: [
        {
          name: "body-size",
          priority: 0,
          action: block("payloadTooLarge"),
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
