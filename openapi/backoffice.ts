/**
 * The backoffice API's OpenAPI 3.1 document, built like the public one from the shared route
 * table and the zod schemas its handlers use. `npm run openapi` writes it to
 * `openapi-backoffice.json`; a test fails when that file differs from a fresh build, and the
 * HTTP tests validate every backoffice response against it.
 */

import { BACKOFFICE_ROUTES, STAFF_AUTHORIZER } from "#shared/declarations/backoffice-api";
import { BACKOFFICE_GATEWAY_RESPONSES } from "#shared/declarations/gateway-responses";
import { auditQuerySchema } from "#shared/domain/audit-query";
import { checkDetail } from "#shared/domain/check-details";
import { RECHECK_GAP_SECONDS, RECHECK_WINDOW_SECONDS } from "#shared/domain/issuer";
import { listPageSchema } from "#shared/domain/lists";
import { decisionMessage, reasonMessage } from "#shared/domain/reasons";
import { auditRecordSchema } from "#shared/domain/responses/audit";
import {
  claimResponseSchema,
  reviewEntrySchema,
  reviewPageSchema,
  type StaffVerification,
  staffVerificationSchema,
} from "#shared/domain/responses/review";
import {
  CLAIM_SECONDS,
  DOCUMENT_COPIES,
  DOCUMENT_LINK_SECONDS,
  documentQuerySchema,
  reviewDecisionSchema,
  reviewsQuerySchema,
} from "#shared/domain/review";
import { type StoredCheck, shownCheck } from "#shared/domain/verification";
import * as z from "#shared/domain/zod";
import { fieldErrorSchema, problemSchema } from "#shared/http/problem-schema";
import { PROBLEM_CONTENT_TYPE } from "#shared/http/problems";
import { REQUEST_ID_HEADER } from "#shared/http/responses";
import {
  AUDITED_REQUEST_ID_HEADER,
  apiOperationOf,
  bearerScheme,
  headerRef,
  type Json,
  jsonBody,
  jsonResponse,
  noStoreHeader,
  type OperationDefinitionBase,
  parametersOf,
  pathParameter,
  pathsOf,
  problemResponses,
  renderJson,
} from "./parts.ts";
import { documentOf } from "./skeleton.ts";

type BackofficeFunction = (typeof BACKOFFICE_ROUTES)[number]["function"];
type ApiFunction = Exclude<BackofficeFunction, "backoffice-console">;

const documentLinkSchema = z
  .strictObject({
    copy: z.enum(DOCUMENT_COPIES),
    url: z.url().check(z.describe(`A presigned GET of the copy, valid ${DOCUMENT_LINK_SECONDS} seconds`)),
    expires_at: z.iso.datetime(),
    media_type: z.string().check(z.describe("The copy's media type, e.g. `application/pdf`")),
  })
  .check(z.describe("A short-lived link to one copy of a verification's document"));

/** Every schema a response carries, under its component name. */
const RESPONSE_SCHEMAS = {
  StaffVerification: staffVerificationSchema,
  ReviewPage: reviewPageSchema,
  ReviewEntry: reviewEntrySchema,
  Claim: claimResponseSchema,
  DocumentLink: documentLinkSchema,
  AuditPage: listPageSchema(auditRecordSchema).check(z.describe("One page of the audit trail")),
  AuditRecord: auditRecordSchema,
  Problem: problemSchema,
  FieldError: fieldErrorSchema,
};

const EXAMPLE_ID = "ver_01JDQ8Z6S7M3V4X5Y6Z7A8B9C0";
const EXAMPLE_APP = "app_01JDQ8Y2K3M4N5P6Q7R8S9T0V1";
const EXAMPLE_IN_REVIEW: StaffVerification = staffVerificationSchema.parse({
  verification_id: EXAMPLE_ID,
  status: "in_review",
  result: null,
  document_type: "YOK_STUDENT",
  process_type: "async",
  external_reference_id: "student-4711",
  original_filename: "ogrenci-belgesi.pdf",
  file_size_bytes: 183422,
  max_document_age_days: null,
  environment: "production",
  upload_deadline: "2026-11-23T12:00:00Z",
  checks: (
    [
      { name: "document_readable", outcome: "passed", ...checkDetail("document_opens", { file_type: "PDF" }) },
      { name: "authority_match", outcome: "skipped", ...checkDetail("issuer_no_answer", { cause: "timeout" }) },
    ] satisfies StoredCheck[]
  ).map(shownCheck),
  reasons: [],
  failure_code: null,
  sequence: 3,
  created_at: "2026-11-22T12:00:00Z",
  updated_at: "2026-11-22T12:03:14Z",
  completed_at: null,
  metadata: {},
  reason_code: "issuer_unavailable",
  message: reasonMessage("issuer_unavailable"),
  extracted: null,
  fraud_signals: [],
  review: { required_at: "2026-11-22T12:03:14Z", decided_at: null },
  redacted_at: null,
  app_id: EXAMPLE_APP,
  app_name: "Acme Admissions",
  copies: { upload: true, issuer: false },
  claim: { claimed_by: "ayse.yilmaz", expires_at: "2026-11-22T12:18:14Z" },
  issuer_recheck: { asked_at: null, asked_by: null, under_way: false, allowed_from: "2026-11-22T12:03:14Z" },
  decision: null,
  document_keys: { barcode: "YOKOB-2026-AB12CD34", identity_number_masked: "12*******34" },
  text_differences: null,
});
/** A reviewer's rejection of a document the issuer could not be asked about, in the customer's words. */
const REVIEWER_REJECTED = decisionMessage("not_genuine", {
  decided_by: "ayse.yilmaz",
  review_reason: "issuer_unavailable",
});
const EXAMPLE_DECIDED = staffVerificationSchema.parse({
  ...EXAMPLE_IN_REVIEW,
  status: "completed",
  result: "rejected",
  reasons: [{ code: "not_genuine", message: REVIEWER_REJECTED }],
  sequence: 4,
  updated_at: "2026-11-22T12:09:40Z",
  completed_at: "2026-11-22T12:09:40Z",
  reason_code: "not_genuine",
  message: REVIEWER_REJECTED,
  review: { required_at: "2026-11-22T12:03:14Z", decided_at: "2026-11-22T12:09:40Z" },
  claim: null,
  issuer_recheck: null,
  decision: { decided_by: "ayse.yilmaz", note: "The seal differs from the issuer's template" },
});
const EXAMPLE_ASKED_AGAIN = staffVerificationSchema.parse({
  ...EXAMPLE_IN_REVIEW,
  issuer_recheck: {
    asked_at: "2026-11-22T12:06:02Z",
    asked_by: "ayse.yilmaz",
    under_way: true,
    allowed_from: "2026-11-22T12:16:02Z",
  },
});

interface OperationDefinition extends OperationDefinitionBase {
  success:
    | { status: 200 | 202; description: string; schema: string; example?: Json; etag?: true }
    | { status: 303; description: string };
}

const OPERATIONS: Record<ApiFunction, OperationDefinition> = {
  "list-reviews": {
    operationId: "listReviews",
    summary: "The review queue",
    description:
      "Verifications waiting in review, oldest first, with their app's name and who holds each claim; all of them, or those of one `document_type` or one `reason_code`. `total` counts every one that matches, across pages. A `cursor` goes on only with the filters its page was read with; with others it is `invalid_cursor`.",
    query: reviewsQuerySchema,
    success: {
      status: 200,
      description: "One page of the queue",
      schema: "ReviewPage",
      example: {
        data: [
          {
            verification_id: EXAMPLE_ID,
            app_id: EXAMPLE_APP,
            app_name: "Acme Admissions",
            document_type: "YOK_STUDENT",
            reason_code: "issuer_unavailable",
            message: reasonMessage("issuer_unavailable"),
            waiting_since: "2026-11-22T12:03:14Z",
            review_deadline: "2026-11-25T12:03:14Z",
            claim: null,
          },
        ],
        next_cursor: null,
        total: 1,
      },
    },
    problems: ["validation_failed", "invalid_cursor", "internal_error"],
  },
  "claim-review": {
    operationId: "claimReview",
    summary: "Claim a review",
    description: `A ${CLAIM_SECONDS / 60}-minute claim for the caller: only the holder may decide. The holder claiming again renews it; while another holds it, \`409 review_claimed\` names who and until when.`,
    success: {
      status: 200,
      description: "The caller holds the claim",
      schema: "Claim",
      example: { verification_id: EXAMPLE_ID, claimed_by: "ayse.yilmaz", expires_at: "2026-11-22T12:18:14Z" },
    },
    problems: ["verification_not_found", "review_claimed", "verification_not_in_review", "internal_error"],
  },
  "decide-review": {
    operationId: "decideReview",
    summary: "Decide a review",
    description:
      'The claim holder\'s decision, sent with `If-Match: "<sequence>"` (the `ETag` of the verification they read). It completes the verification through the same state machine as every other change, and its `verification.completed` webhook is sent. The customer sees the result and the reason, never the reviewer or the note.',
    success: {
      status: 200,
      description: "The verification, completed",
      schema: "StaffVerification",
      example: EXAMPLE_DECIDED,
      etag: true,
    },
    problems: [
      "malformed_json",
      "precondition_required",
      "unsupported_media_type",
      "payload_too_large",
      "validation_failed",
      "verification_not_found",
      "review_claimed",
      "review_not_claimed",
      "verification_not_in_review",
      "sequence_mismatch",
      "internal_error",
    ],
  },
  "ask-issuer-again": {
    operationId: "askIssuerAgain",
    summary: "Ask the issuer again",
    description: `For a verification in review because the issuer gave no answer when it was asked (\`issuer_unavailable\`): the claim holder sends its lookup to the issuer again, at most once an item every ${RECHECK_GAP_SECONDS / 60} minutes (\`issuer_recheck.allowed_from\`). The issuer is asked at once and, should it give no answer again, once more after ${RECHECK_WINDOW_SECONDS} seconds. On its answer the same checks run: what they can decide completes the verification (its \`verification.completed\` webhook is sent); otherwise it stays in review with its checks revised and its review window unchanged. Read the verification until \`issuer_recheck.under_way\` is false. Recorded in the audit trail.`,
    success: {
      status: 202,
      description: "The lookup is on its way; the verification, with `issuer_recheck.under_way`",
      schema: "StaffVerification",
      example: EXAMPLE_ASKED_AGAIN,
    },
    problems: [
      "verification_not_found",
      "review_claimed",
      "review_not_claimed",
      "verification_not_in_review",
      "issuer_not_askable",
      "issuer_asked_recently",
      "sequence_mismatch",
      "internal_error",
    ],
  },
  "inspect-verification": {
    operationId: "getStaffVerification",
    summary: "Read a verification",
    description:
      "The verification as its customer sees it, plus its app, its claim, its decision and which copies of the document exist. The read is recorded in the audit trail.",
    success: {
      status: 200,
      description: "The verification",
      schema: "StaffVerification",
      example: EXAMPLE_IN_REVIEW,
      etag: true,
    },
    problems: ["verification_not_found", "internal_error"],
  },
  "view-document": {
    operationId: "viewDocument",
    summary: "Open a copy of the document",
    description: `\`303\` to a presigned GET of the copy, valid ${DOCUMENT_LINK_SECONDS} seconds: \`upload\` is the document as confirmed, \`issuer\` the issuer's copy the checks fetched. With \`Accept: application/json\` the answer is the link itself (a browser cannot read where a cross-origin redirect points). Each view is recorded in the audit trail.`,
    query: documentQuerySchema,
    success: {
      status: 303,
      description: "See `Location`; with `Accept: application/json`, a 200 with the link instead",
    },
    problems: ["validation_failed", "verification_not_found", "document_not_found", "internal_error"],
  },
  "read-audit": {
    operationId: "readAudit",
    summary: "Read the audit trail",
    description:
      "Records newest first: one verification's (`verification_id`), one actor's (`actor`, their `sub`), or everyone's. Admins only.",
    query: auditQuerySchema,
    success: {
      status: 200,
      description: "One page of the trail",
      schema: "AuditPage",
      example: {
        data: [
          {
            audit_id: "aud_01JDQ9A1B2C3D4E5F6G7H8J9K0",
            at: "2026-11-22T12:09:40Z",
            actor: { pool: "staff", sub: "8a1f5c2e-0b7d-4e8a-9c3f-6d2b1a0e9f87", username: "ayse.yilmaz" },
            action: "review.decided",
            verification_id: EXAMPLE_ID,
            app_id: EXAMPLE_APP,
            detail: { result: "rejected", reason_code: "not_genuine" },
            request_id: "3f0c2b9e-6d1a-4c57-9b8e-2a4f1d7c9e60",
            source_ip: "203.0.113.7",
          },
        ],
        next_cursor: null,
      },
    },
    problems: ["validation_failed", "invalid_cursor", "internal_error"],
  },
};

function responsesFor(definition: OperationDefinition): Json {
  const { success } = definition;
  if (success.status === 303) {
    return {
      "303": {
        description: success.description,
        headers: {
          [REQUEST_ID_HEADER]: headerRef("RequestId"),
          Location: headerRef("DocumentLocation"),
          "Cache-Control": headerRef("NoStore"),
        },
      },
      "200": jsonResponse("The link itself, for a request with `Accept: application/json`", "DocumentLink", {
        "Cache-Control": headerRef("NoStore"),
      }),
      ...problemResponses(definition.problems, BACKOFFICE_GATEWAY_RESPONSES),
    };
  }
  return {
    [success.status]: jsonResponse(
      success.description,
      success.schema,
      success.etag ? { ETag: headerRef("ETag") } : {},
      { example: success.example },
    ),
    ...problemResponses(definition.problems, BACKOFFICE_GATEWAY_RESPONSES),
  };
}

function apiOperation(route: (typeof BACKOFFICE_ROUTES)[number], definition: OperationDefinition): Json {
  const groups = "groups" in route ? route.groups : [];
  const deciding = route.function === "decide-review";
  return apiOperationOf({
    operationId: definition.operationId,
    summary: definition.summary,
    description: `${definition.description}\n\n**Groups**: ${groups.map((group) => `\`${group}\``).join(", ")}.`,
    tags: [route.function === "read-audit" ? "Audit" : "Reviews"],
    parameters: parametersOf(
      route.path,
      { "{verification_id}": "VerificationId" },
      deciding ? ["IfMatch"] : [],
      definition.query,
    ),
    ...(deciding
      ? {
          requestBody: jsonBody("ReviewDecision", true, {
            examples: {
              rejected: {
                summary: "Rejected, with a reason and a note",
                value: reviewDecisionSchema.parse({
                  result: "rejected",
                  reason_code: "not_genuine",
                  note: "The seal differs from the issuer's template",
                }),
              },
              verified: { summary: "Verified", value: reviewDecisionSchema.parse({ result: "verified" }) },
            },
          }),
        }
      : {}),
    responses: responsesFor(definition),
  });
}

const CONSOLE_PAGE = {
  function: "backoffice-console",
  root: "/backoffice",
  name: "review console",
  description:
    "The review console, for a browser: open `/backoffice/` (a request without the trailing slash is redirected there). It signs in against the staff user pool and calls this API with the access token.",
  files: ["console.js", "console.css"],
  tag: "Console",
  idPrefix: "console",
} as const;

const INFO_DESCRIPTION = `The service's own staff decide here what could not be decided automatically: the review
queue, a verification with both copies of its document, a claim, a decision; and, for admins, the audit trail.
The review console at \`/backoffice/\` is built on exactly these routes.

**Authentication**: \`${STAFF_AUTHORIZER.identityHeader}: Bearer <access token>\` of the environment's staff user pool
(Amazon Cognito; an id token, another pool's or another client's token is refused with 401). Each operation names the
groups that may call it; another group is 403. An API key is never accepted here, nor a staff token on the public API.

**Errors** are RFC 9457 problem details (\`${PROBLEM_CONTENT_TYPE}\`) with a stable \`code\`, as on the public API.
Every response carries \`${REQUEST_ID_HEADER}\`, which the audit trail records.`;

/** The whole document. Pure: the same code always builds the same document. */
export function buildBackofficeDocument(): Json {
  return documentOf({
    title: "Verification backoffice API",
    description: INFO_DESCRIPTION,
    servers: { output: "BackofficeApiUrl", idPrefix: "backoffice-api", localUrl: "http://127.0.0.1:3004" },
    security: {
      name: "StaffToken",
      scheme: bearerScheme("An access token of the environment's staff user pool, for the console's client."),
    },
    tags: [
      { name: "Reviews", description: "The queue, a verification and its documents, the claim and the decision" },
      { name: "Audit", description: "Who did what, when and from where" },
      { name: "Console", description: "The review console's page and files" },
    ],
    paths: pathsOf(
      BACKOFFICE_ROUTES,
      (route) => apiOperation(route, OPERATIONS[route.function as ApiFunction]),
      CONSOLE_PAGE,
    ),
    parameters: {
      VerificationId: pathParameter("verification_id", "A verification's id. An unknown one answers 404.", EXAMPLE_ID),
      IfMatch: {
        name: "If-Match",
        in: "header",
        required: true,
        description:
          'The `ETag` of the verification the decision is about: `"<sequence>"`. Missing, 428; no longer current, 409 `sequence_mismatch`.',
        schema: { type: "string", pattern: '^"\\d+"$' },
        example: '"3"',
      },
    },
    headers: {
      RequestId: AUDITED_REQUEST_ID_HEADER,
      ETag: {
        description: "The verification's `sequence` as an entity tag: send it back as `If-Match` to decide",
        required: true,
        schema: { type: "string", pattern: '^"\\d+"$' },
      },
      DocumentLocation: {
        description: `A presigned GET of the copy, valid ${DOCUMENT_LINK_SECONDS} seconds`,
        required: true,
        schema: { type: "string", format: "uri" },
      },
      NoStore: noStoreHeader("A document link is a credential: never cached"),
    },
    gatewayResponses: BACKOFFICE_GATEWAY_RESPONSES,
    operations: OPERATIONS,
    responseSchemas: RESPONSE_SCHEMAS,
    requestSchemas: { ReviewDecision: reviewDecisionSchema },
  });
}

/** `openapi-backoffice.json`. */
export function renderBackofficeDocument(): string {
  return renderJson(buildBackofficeDocument(), "openapi-backoffice.json");
}
