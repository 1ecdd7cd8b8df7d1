/**
 * The OpenAPI 3.1 document, built from the zod schemas the handlers use and the shared route
 * table. `npm run openapi` writes it to `openapi.json`; a test fails when that file differs
 * from a fresh build, and the HTTP tests validate every response against it.
 */

import { GATEWAY_RESPONSES } from "#shared/declarations/gateway-responses";
import { AUTHORIZER, ROUTES } from "#shared/declarations/public-api";
import { checkDetail } from "#shared/domain/check-details";
import { registryEntry } from "#shared/domain/document-registry";
import { allowedExtensions, DOCUMENT_TYPES, type DocumentType } from "#shared/domain/document-types";
import { ID_PATTERNS } from "#shared/domain/ids";
import { newVerificationSchema } from "#shared/domain/new-verification";
import { reasonMessage } from "#shared/domain/reasons";
import { eventPageSchema, testEventSchema, webhookEventSchema } from "#shared/domain/responses/events";
import {
  checkSchema,
  listedVerificationSchema,
  reasonSchema,
  uploadSchema,
  type VerificationResource,
  verificationPageSchema,
  verificationResourceSchema,
} from "#shared/domain/responses/verification";
import { eventsQuerySchema, verificationListQuerySchema } from "#shared/domain/searches";
import { erasedResource, type StoredCheck, shownCheck } from "#shared/domain/verification";
import {
  API_VERSION,
  EVENT_TYPES,
  type EventType,
  TEST_EVENT_TYPE,
  WEBHOOK_HEADERS,
} from "#shared/domain/webhook-events";
import * as z from "#shared/domain/zod";
import { MAX_BODY_BYTES } from "#shared/http/edges";
import { fieldErrorSchema, problemSchema } from "#shared/http/problem-schema";
import { PROBLEM_CONTENT_TYPE } from "#shared/http/problems";
import { idempotencyKey } from "#shared/http/requests";
import { REQUEST_ID_HEADER } from "#shared/http/responses";
import {
  apiOperationOf,
  headerRef,
  JSON_CONTENT_TYPE,
  type Json,
  jsonBody,
  jsonResponse,
  jsonSchemaOf,
  type OperationDefinitionBase,
  parameterRef,
  parametersOf,
  pathParameter,
  pathsOf,
  problemResponses,
  renderJson,
  schemaRef,
} from "./parts.ts";
import { documentOf } from "./skeleton.ts";

type RouteFunction = (typeof ROUTES)[number]["function"];

/** Where verifications are created, and under which each one's `Location` points. */
const CREATE_PATH = (() => {
  const route = ROUTES.find((candidate) => candidate.function === "create-verification");
  if (!route) throw new Error("The route table has no create-verification route");
  return route.path;
})();

/** Every schema a response or webhook carries, under its component name. */
const RESPONSE_SCHEMAS = {
  Verification: verificationResourceSchema,
  Upload: uploadSchema,
  Check: checkSchema,
  Reason: reasonSchema,
  Problem: problemSchema,
  FieldError: fieldErrorSchema,
  WebhookEvent: webhookEventSchema,
  WebhookVerification: webhookEventSchema.shape.data.shape.verification,
  TestEvent: testEventSchema,
  ListedVerification: listedVerificationSchema,
  VerificationPage: verificationPageSchema.check(z.describe("One page of the app's verifications, newest first")),
  EventPage: eventPageSchema.check(z.describe("One page of the app's events, in the order they happened")),
};

const EXAMPLE_ID = "ver_01JDQ8Z6S7M3V4X5Y6Z7A8B9C0";
const EXAMPLE_CREATED = verificationResourceSchema.parse({
  verification_id: EXAMPLE_ID,
  status: "awaiting_upload",
  result: null,
  document_type: "YOK_STUDENT",
  process_type: "async",
  external_reference_id: "student-4711",
  original_filename: "ogrenci-belgesi.pdf",
  file_size_bytes: 183422,
  environment: "sandbox",
  upload: {
    method: "PUT",
    url: "https://uploads.example.test/documents/ver_01JDQ8Z6S7M3V4X5Y6Z7A8B9C0?X-Amz-Signature=...",
    headers: { "Content-Type": "application/pdf", "Content-Length": "183422" },
    expires_at: "2026-11-22T12:15:00Z",
  },
  max_document_age_days: null,
  upload_deadline: "2026-11-23T12:00:00Z",
  checks: [],
  reasons: [],
  failure_code: null,
  sequence: 1,
  created_at: "2026-11-22T12:00:00Z",
  updated_at: "2026-11-22T12:00:00Z",
  completed_at: null,
  metadata: { customer_id: "cus_8812" },
  reason_code: "awaiting_upload",
  message: reasonMessage("awaiting_upload"),
  extracted: null,
  fraud_signals: [],
  review: null,
  redacted_at: null,
} satisfies VerificationResource);
function withoutUploadOf(resource: VerificationResource): Omit<VerificationResource, "upload"> {
  const { upload: _upload, ...rest } = resource;
  return rest;
}
const withoutUpload = withoutUploadOf(EXAMPLE_CREATED);
const EXAMPLE_PROCESSING = verificationResourceSchema.parse({
  ...withoutUpload,
  status: "processing",
  reason_code: "processing",
  message: reasonMessage("processing"),
  sequence: 2,
  updated_at: "2026-11-22T12:03:10Z",
});
const EXAMPLE_COMPLETED = verificationResourceSchema.parse({
  ...EXAMPLE_PROCESSING,
  status: "completed",
  result: "verified",
  reason_code: "verified",
  message: reasonMessage("verified"),
  checks: (
    [
      { name: "upload_present", outcome: "passed", ...checkDetail("document_stored") },
      { name: "size_matches", outcome: "passed", ...checkDetail("size_as_declared", { bytes: 183422 }) },
      { name: "file_type_allowed", outcome: "passed", ...checkDetail("file_type_is", { file_type: "PDF" }) },
      { name: "document_readable", outcome: "passed", ...checkDetail("document_opens", { file_type: "PDF" }) },
      {
        name: "barcode_found",
        outcome: "passed",
        ...checkDetail("barcode_and_number_read", { barcode: "YOK-7Q4M-2K9D-81XA" }),
      },
      { name: "authority_match", outcome: "passed", ...checkDetail("issuer_copy_same_bytes") },
      { name: "fields_extracted", outcome: "passed", ...checkDetail("fields_read") },
      { name: "student_active", outcome: "passed", ...checkDetail("rule_met", { rule: "student_active" }) },
    ] satisfies StoredCheck[]
  ).map(shownCheck),
  extracted: {
    schema: "yok_student.v1",
    source: "issuer_copy",
    fields: {
      full_name: "AYŞE DENEME",
      mother_name: "FATMA",
      father_name: "MEHMET",
      birth_date: "2004-03-17",
      nationality: "T.C.",
      registered_at: "2022-09-12",
      education_type: "Örgün Öğretim",
      education_duration_years: 4,
      student_status: "Aktif",
      is_active: true,
      class_year: 3,
      university_name: "ÖRNEK ÜNİVERSİTESİ",
      faculty_name: "Mühendislik Fakültesi",
      department_name: "Bilgisayar Mühendisliği",
      program_name: "Bilgisayar Mühendisliği",
      barcode: "YOK-7Q4M-2K9D-81XA",
    },
  },
  sequence: 3,
  updated_at: "2026-11-22T12:03:14Z",
  completed_at: "2026-11-22T12:03:14Z",
});

interface OperationDefinition extends OperationDefinitionBase {
  success: {
    status: 200 | 201;
    description: string;
    /** The component the answer is; `Verification` unless named. */
    schema?: string;
    examples: Record<string, { summary: string; value: Json }>;
  };
}

function documentTypeList(): string {
  return (Object.keys(DOCUMENT_TYPES) as DocumentType[])
    .map((code) => `- \`${code}\`: ${registryEntry(code).description.en} (${allowedExtensions(code).join(", ")})`)
    .join("\n");
}

const OPERATIONS: Record<RouteFunction, OperationDefinition> = {
  "create-verification": {
    operationId: "createVerification",
    summary: "Create a verification",
    description: [
      "Creates a verification for one document and answers with the instructions to upload it; or, with",
      "`document_keys` (the barcode and the holder's T.C. identity number) instead of `original_filename` and",
      "`file_size_bytes`, one that needs no upload: it answers `processing` (with `process_type: sync`, the",
      "decision when it is reached within 25 s), and the decision rests on e-Devlet's copy alone.",
      `The body is a JSON object of at most ${MAX_BODY_BYTES} bytes; unknown fields are refused (422).`,
      "Document types and the file extensions each allows:",
      documentTypeList(),
      "",
      "A retry with the same `Idempotency-Key` and the same body answers the first response again, with",
      "`Idempotent-Replayed: true`. The same key with another body is `422 idempotency_key_reused`; while the",
      "first request still runs, `409 idempotency_request_in_progress` with `Retry-After`. Refused requests",
      "are not remembered, so a corrected request may reuse the key.",
    ].join("\n"),
    success: {
      status: 201,
      description:
        "Created. Upload the file as `upload` says, then confirm it; a verification by `document_keys` is already processing.",
      examples: { created: { summary: "Awaiting the upload", value: EXAMPLE_CREATED } },
    },
    problems: [
      "malformed_json",
      "idempotency_key_missing",
      "idempotency_key_invalid",
      "idempotency_request_in_progress",
      "payload_too_large",
      "unsupported_media_type",
      "validation_failed",
      "idempotency_key_reused",
      "service_unavailable",
      "internal_error",
    ],
  },
  "confirm-upload": {
    operationId: "confirmUpload",
    summary: "Confirm the upload",
    description: [
      "Tells the service the file is uploaded. It checks that the file exists, has `file_size_bytes` bytes",
      "and is an allowed type by its content, then starts processing. The body is ignored.",
      "",
      "A wrong size or type deletes the uploaded file and leaves the verification `awaiting_upload`: fetch",
      "it for a fresh upload URL and upload again. Confirming a verification already past `awaiting_upload`",
      "answers its current state and runs nothing again. With `process_type: sync` the answer waits up to",
      "25 seconds for a terminal state.",
    ].join("\n"),
    success: {
      status: 200,
      description: "The verification, now `processing` (or terminal, for `sync` within 25 s)",
      examples: {
        processing: { summary: "Processing", value: EXAMPLE_PROCESSING },
        completed: { summary: "Completed (sync)", value: EXAMPLE_COMPLETED },
      },
    },
    problems: [
      "verification_not_found",
      "upload_not_found",
      "verification_expired",
      "file_size_mismatch",
      "unsupported_file_type",
      "service_unavailable",
      "internal_error",
    ],
  },
  "get-verification": {
    operationId: "getVerification",
    summary: "Fetch a verification",
    description: [
      "Answers the verification's current state. While it is `awaiting_upload`, every fetch signs a fresh",
      "upload URL. Ids of other apps answer 404, exactly as unknown ids do.",
    ].join("\n"),
    success: {
      status: 200,
      description: "The verification",
      examples: {
        awaiting: { summary: "Awaiting the upload", value: EXAMPLE_CREATED },
        completed: { summary: "Completed", value: EXAMPLE_COMPLETED },
      },
    },
    problems: ["verification_not_found", "service_unavailable", "internal_error"],
  },
  "erase-verification": {
    operationId: "eraseVerification",
    summary: "Erase a verification",
    description: [
      "Erases the person from the verification now: the document, the issuer's copy, the checks' details,",
      "extracted fields, file name, reference and metadata are deleted; ids, status, result, reasons and times",
      "remain, with `redacted_at`. A `verification.redacted` event follows, and the bodies of its earlier events",
      "are erased too. An upload still awaited ends as `expired`. While the verification is `processing` (seconds)",
      "or `in_review` (until a decision or the review window closes) it answers 409 `verification_in_progress`.",
      "Erasing again answers the same erased verification. Nothing can undo an erasure.",
    ].join("\n"),
    success: {
      status: 200,
      description: "The erased verification",
      examples: {
        erased: {
          summary: "Erased after it completed",
          value: erasedResource(withoutUploadOf(EXAMPLE_COMPLETED), "2026-11-24T09:00:00Z"),
        },
      },
    },
    problems: ["verification_not_found", "verification_in_progress", "service_unavailable", "internal_error"],
  },
  "list-verifications": {
    operationId: "listVerifications",
    summary: "List verifications",
    description: [
      "The app's verifications, newest first, optionally only those with one `external_reference_id` (reconcile",
      "by your own reference), in one status, or created in a window (`created_after` inclusive, `created_before`",
      "exclusive). Pass `next_cursor` as `cursor` for the next page; verifications created meanwhile are newer than",
      "every page read so far, so paging never repeats or skips one. Lists carry no `upload`: fetch a verification",
      "for fresh upload instructions.",
    ].join("\n"),
    query: verificationListQuerySchema,
    success: {
      status: 200,
      description: "One page of verifications",
      schema: "VerificationPage",
      examples: { page: { summary: "A page", value: { data: [EXAMPLE_COMPLETED], next_cursor: null } } },
    },
    problems: ["validation_failed", "invalid_cursor", "service_unavailable", "internal_error"],
  },
  "list-events": {
    operationId: "listEvents",
    summary: "List events",
    description: [
      "The app's events of the last 30 days in the order they happened, with the exact bodies the webhooks",
      "carried (and carry on retries). Catch up on deliveries you missed: pass the last `id` you processed as",
      "`after`; `next_cursor` is the last event of a full page (pass it as `after`), null when there is no more.",
    ].join("\n"),
    query: eventsQuerySchema,
    success: {
      status: 200,
      description: "One page of events",
      schema: "EventPage",
      examples: {
        page: {
          summary: "A page",
          value: {
            data: [
              {
                id: "evt_01JDQ8ZC4M5N6P7Q8R9S0T1V2W",
                type: "verification.completed",
                created_at: EXAMPLE_COMPLETED.updated_at,
                environment: "sandbox",
                api_version: API_VERSION,
                data: { verification: withoutUploadOf(EXAMPLE_COMPLETED) },
              },
            ],
            next_cursor: null,
          },
        },
      },
    },
    problems: ["validation_failed", "service_unavailable", "internal_error"],
  },
};

function responsesFor(definition: OperationDefinition): Json {
  const { success } = definition;
  return {
    [success.status]: jsonResponse(
      success.description,
      success.schema ?? "Verification",
      success.status === 201
        ? { Location: headerRef("Location"), "Idempotent-Replayed": headerRef("IdempotentReplayed") }
        : {},
      { examples: success.examples },
    ),
    ...problemResponses(definition.problems, GATEWAY_RESPONSES),
  };
}

function operation(route: (typeof ROUTES)[number]): Json {
  const definition = OPERATIONS[route.function];
  const creating = route.function === "create-verification";
  return apiOperationOf({
    operationId: definition.operationId,
    summary: definition.summary,
    description: definition.description,
    tags: ["Verifications"],
    parameters: parametersOf(
      route.path,
      { "{verification_id}": "VerificationId" },
      creating ? ["IdempotencyKey"] : [],
      definition.query,
    ),
    ...(creating
      ? {
          requestBody: jsonBody("CreateVerificationRequest", true, {
            examples: {
              pdf: {
                summary: "A student certificate as PDF",
                value: newVerificationSchema.parse({
                  document_type: "YOK_STUDENT",
                  external_reference_id: "student-4711",
                  original_filename: "ogrenci-belgesi.pdf",
                  file_size_bytes: 183422,
                  metadata: { customer_id: "cus_8812" },
                  expected_subject: { full_name: "Ayşe Yılmaz", birth_date: "2004-03-17" },
                }),
              },
              keys: {
                summary: "By barcode alone: no file, e-Devlet's copy is the evidence",
                value: newVerificationSchema.parse({
                  document_type: "YOK_STUDENT",
                  process_type: "sync",
                  external_reference_id: "student-4711",
                  document_keys: { barcode: "TESTYOK-0001-AKTIF", identity_number: "10000000146" },
                  max_document_age_days: 30,
                }),
              },
            },
          }),
        }
      : {}),
    responses: responsesFor(definition),
  });
}

const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  "verification.processing": "The upload was confirmed and processing started",
  "verification.in_review":
    "A person must decide: see `reason_code`. A decision, or the review window closing, follows as `verification.completed`",
  "verification.completed": "Processing finished: `result` is `verified`, `rejected` or `inconclusive`",
  "verification.failed": "The file could not be processed: see `failure_code`",
  "verification.expired": "The upload deadline passed before the upload was confirmed",
  "verification.redacted":
    "The verification was erased (`DELETE`, or an operator's erasure): the resource keeps ids, status, result, reasons and times. The bodies of its earlier events are erased too; drop what you kept of them",
  [TEST_EVENT_TYPE]:
    "Sent only when someone of your organisation asks for it in the portal, to try the destination; it is about no verification, so change nothing on receiving it",
};

function webhooks(): Json {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `on${type
            .split(/[._]/)
            .map((part) => `${part[0]?.toUpperCase()}${part.slice(1)}`)
            .join("")}`,
          summary: type,
          description: `${EVENT_DESCRIPTIONS[type]}. Sent to the app's webhook destination, signed by the Standard Webhooks scheme.`,
          tags: ["Webhooks"],
          security: [],
          parameters: [parameterRef("WebhookId"), parameterRef("WebhookTimestamp"), parameterRef("WebhookSignature")],
          requestBody: {
            required: true,
            content: {
              [JSON_CONTENT_TYPE]: {
                schema:
                  type === TEST_EVENT_TYPE
                    ? schemaRef("TestEvent")
                    : { allOf: [schemaRef("WebhookEvent"), { properties: { type: { const: type } } }] },
              },
            },
          },
          responses: {
            "200": { description: "Any 2xx status within 10 seconds acknowledges the delivery" },
            default: { description: "Any other status, or no answer within 10 seconds, makes the service retry" },
          },
        },
      },
    ]),
  );
}

const INFO_DESCRIPTION = `Verify a document in three calls: create a verification, upload the file to the URL the
create response gives, confirm the upload. Then fetch the verification, or receive its result by webhook.

**Authentication**: every call sends the client app's API key in \`${AUTHORIZER.identityHeader}\`. Keys belong to one
app in one environment (\`vk_sandbox_…\`, \`vk_production_…\`) and are kept on your backend only.

**Errors** are RFC 9457 problem details (\`${PROBLEM_CONTENT_TYPE}\`) with a stable \`code\`. Every response carries
\`${REQUEST_ID_HEADER}\`.

**Versioning**: \`/v1\` is the major version. New fields, enum values, event types and optional parameters are
not breaking changes: ignore what you do not know. A breaking change makes \`/v2\`, served beside \`/v1\` for at
least 12 months.`;

/** The whole document. Pure: the same code always builds the same document. */
export function buildDocument(): Json {
  return documentOf({
    title: "Verification API",
    description: INFO_DESCRIPTION,
    servers: { output: "ApiUrl", idPrefix: "api", localUrl: "http://127.0.0.1:3000" },
    security: {
      name: "ApiKey",
      scheme: {
        type: "apiKey",
        in: "header",
        name: AUTHORIZER.identityHeader,
        description: "The client app's API key of this environment. A missing or wrong key answers 401.",
      },
    },
    tags: [
      { name: "Verifications", description: "Create a verification, confirm its upload, fetch it" },
      {
        name: "Webhooks",
        description:
          "Events the service sends to your webhook destination, at least once. Verify the signature before trusting a body; deduplicate by `id` and keep the highest `sequence`.",
      },
    ],
    paths: pathsOf(ROUTES, operation),
    webhooks: webhooks(),
    parameters: {
      VerificationId: pathParameter(
        "verification_id",
        "The `verification_id` the create call answered. Any other value answers 404.",
        EXAMPLE_ID,
      ),
      IdempotencyKey: {
        name: "Idempotency-Key",
        in: "header",
        required: true,
        description: z.globalRegistry.get(idempotencyKey)?.description,
        schema: (() => {
          const { description: _description, ...schema } = z.toJSONSchema(idempotencyKey, jsonSchemaOf("input"));
          delete schema.$schema;
          return schema;
        })(),
        example: "order-2291-document-1",
      },
      WebhookId: {
        name: WEBHOOK_HEADERS.id,
        in: "header",
        required: true,
        description: "Identifies the event: the same on every retry of it, so deduplicate by it",
        schema: { type: "string", minLength: 1 },
      },
      WebhookTimestamp: {
        name: WEBHOOK_HEADERS.timestamp,
        in: "header",
        required: true,
        description:
          "When this delivery was signed, in seconds since the Unix epoch. Refuse old timestamps (5 minutes).",
        schema: { type: "string", pattern: "^\\d+$" },
      },
      WebhookSignature: {
        name: WEBHOOK_HEADERS.signature,
        in: "header",
        required: true,
        description:
          "`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part of the secret after `whsec_`. During a secret rotation two signatures are sent, separated by a space: accept the delivery if one matches.",
        schema: { type: "string", pattern: "^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$" },
      },
    },
    headers: {
      RequestId: {
        description: "Identifies this request: quote it to support. The same value as `request_id` in an error body.",
        required: true,
        schema: { type: "string", minLength: 1 },
      },
      Location: {
        description: "The new verification's absolute URL, under the base URL the request was sent to",
        required: true,
        schema: {
          type: "string",
          format: "uri",
          pattern: `^https?://[^/]+(/[^/]+)*${CREATE_PATH}/${ID_PATTERNS.verification.source.replace(/^\^/, "")}`,
        },
      },
      IdempotentReplayed: {
        description: "Present, `true`, when this is the stored first response to the same Idempotency-Key",
        required: false,
        schema: { type: "string", enum: ["true"] },
      },
    },
    gatewayResponses: GATEWAY_RESPONSES,
    operations: OPERATIONS,
    responseSchemas: RESPONSE_SCHEMAS,
    requestSchemas: { CreateVerificationRequest: newVerificationSchema },
  });
}

/** `openapi.json`. */
export function renderDocument(): string {
  return renderJson(buildDocument(), "openapi.json");
}
