/**
 * The portal API's OpenAPI 3.1 document, built like the others from the shared route table and
 * the zod schemas its handlers use. `npm run openapi` writes it to `openapi-portal.json`; a test
 * fails when that file differs from a fresh build, and the HTTP tests validate every portal
 * response against it.
 */
import { PORTAL_GATEWAY_RESPONSES } from "#shared/declarations/gateway-responses";
import { PORTAL_AUTHORIZER, PORTAL_ROUTES } from "#shared/declarations/portal-api";
import { listPageSchema } from "#shared/domain/lists";
import { ROLE_GRANTS } from "#shared/domain/organizations";
import {
  appEventsQuerySchema,
  appRequestsQuerySchema,
  appsQuerySchema,
  deliveriesQuerySchema,
  inviteBodySchema,
  lookupQuerySchema,
  memberRoleBodySchema,
  membersQuerySchema,
  newAppBodySchema,
  renameKeyBodySchema,
  rotateKeyBodySchema,
  usageQuerySchema,
  webhookBodySchema,
} from "#shared/domain/portal";
import { KEEP_REQUESTS_DAYS } from "#shared/domain/requests";
import {
  appEventSchema,
  createdAppSchema,
  deliverySchema,
  invitedSchema,
  keptRequestSchema,
  keySchema,
  lookupMatchSchema,
  memberSchema,
  meSchema,
  portalAppSchema,
  renamedKeySchema,
  replaySchema,
  revokedKeySchema,
  rotatedKeySchema,
  rotatedSecretSchema,
  testDeliverySchema,
  usageRowSchema,
  webhookDestinationSchema,
} from "#shared/domain/responses/portal";
import { listedVerificationSchema, verificationPageSchema } from "#shared/domain/responses/verification";
import { portalSearchQuerySchema } from "#shared/domain/searches";
import {
  APPS_PER_ORGANIZATION,
  LIVE_KEYS_PER_APP,
  MEMBERS_PER_ORGANIZATION,
  PENDING_INVITES_PER_ORGANIZATION,
  SENDING_LIMITS,
} from "#shared/domain/tenant-limits";
import * as z from "#shared/domain/zod";
import { fieldErrorSchema, problemSchema } from "#shared/http/problem-schema";
import { PROBLEM_CONTENT_TYPE, type ProblemCode } from "#shared/http/problems";
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

type PortalFunction = Exclude<(typeof PORTAL_ROUTES)[number]["function"], "portal-page">;

/** Every schema a response carries, under its component name. */
const RESPONSE_SCHEMAS = {
  Me: meSchema,
  Key: keySchema,
  App: portalAppSchema,
  AppPage: listPageSchema(portalAppSchema).check(z.describe("One page of your organisation's apps")),
  CreatedApp: createdAppSchema,
  RotatedKey: rotatedKeySchema,
  RevokedKey: revokedKeySchema,
  RenamedKey: renamedKeySchema,
  WebhookDestination: webhookDestinationSchema,
  RotatedSecret: rotatedSecretSchema,
  Delivery: deliverySchema,
  DeliveryPage: listPageSchema(deliverySchema).check(z.describe("One page of delivery attempts, newest first")),
  TestDelivery: testDeliverySchema,
  LookupPage: listPageSchema(lookupMatchSchema).check(
    z.describe("The verifications found (or the most recent), newest first; `next_cursor` is always null"),
  ),
  KeptRequest: keptRequestSchema,
  KeptRequestPage: listPageSchema(keptRequestSchema).check(
    z.describe("One page of an app's kept requests, newest first"),
  ),
  AppEvent: appEventSchema,
  AppEventPage: listPageSchema(appEventSchema).check(z.describe("One page of an app's events, newest first")),
  Replay: replaySchema,
  Verification: listedVerificationSchema,
  VerificationPage: verificationPageSchema.check(z.describe("One page of an app's verifications, newest first")),
  UsageRow: usageRowSchema,
  UsagePage: listPageSchema(usageRowSchema).check(z.describe("Every day and app of the window that has counts")),
  Member: memberSchema,
  MemberPage: listPageSchema(memberSchema).check(z.describe("One page of your organisation's people")),
  Invited: invitedSchema,
  Problem: problemSchema,
  FieldError: fieldErrorSchema,
};

/** Request bodies, strict: an unknown field is 422. */
const REQUEST_SCHEMAS = {
  NewAppRequest: newAppBodySchema,
  RotateKeyRequest: rotateKeyBodySchema,
  RenameKeyRequest: renameKeyBodySchema,
  WebhookDestinationRequest: webhookBodySchema,
  InviteRequest: inviteBodySchema,
  MemberRoleRequest: memberRoleBodySchema,
} as const;

/** What a body is refused with before any rule runs. */
const BODY_PROBLEMS: ProblemCode[] = [
  "malformed_json",
  "unsupported_media_type",
  "payload_too_large",
  "validation_failed",
];

const EXAMPLE_APP = "app_01JDQ8Y2K3M4N5P6Q7R8S9T0V1";
const EXAMPLE_KEY = {
  key_id: "key_3f9a2c71d04e8b6a1c55",
  prefix: "vk_sandbox_Q2xk8Rmd",
  name: "Admissions, production servers",
  status: "active",
  created_at: "2026-11-22T09:00:00Z",
  expires_at: null,
  revoked_at: null,
  last_used_at: "2026-11-24T08:14:00Z",
};
const EXAMPLE_PORTAL_APP = portalAppSchema.parse({
  app_id: EXAMPLE_APP,
  name: "Admissions backend",
  environment: "sandbox",
  status: "active",
  webhook_url: "https://hooks.acme.example/verifications",
  previous_webhook_secret_expires_at: null,
  created_at: "2026-11-22T09:00:00Z",
  updated_at: "2026-11-22T09:00:00Z",
  keys: [EXAMPLE_KEY],
});
const EXAMPLE_DELIVERY = deliverySchema.parse({
  event_id: "evt_01JDQ8ZC4M5N6P7Q8R9S0T1V2W",
  event_type: "webhook.test",
  attempt: 1,
  attempted_at: "2026-11-22T12:05:00Z",
  url: "https://hooks.acme.example/verifications",
  outcome: "delivered",
  response_status: 200,
  latency_ms: 84,
  response_body: '{"received":true}',
  error: null,
  error_code: null,
});

const EXAMPLE_REQUEST = keptRequestSchema.parse({
  request_id: "c6f1a7a2-3b1e-4d55-9a43-1f0e2d3c4b5a",
  method: "POST",
  path: "/v1/verifications",
  status: 422,
  code: "validation_failed",
  errors: [{ field: "file_size_bytes", code: "too_large" }],
  verification_id: null,
  at: "2026-11-22T12:04:31Z",
});
const EXAMPLE_EVENT = appEventSchema.parse({
  event_id: EXAMPLE_DELIVERY.event_id,
  type: "webhook.test",
  created_at: "2026-11-22T12:04:58Z",
  verification_id: null,
  status: "delivered",
  next_attempt_at: null,
  payload: {
    id: EXAMPLE_DELIVERY.event_id,
    type: "webhook.test",
    created_at: "2026-11-22T12:04:58Z",
    environment: "sandbox",
    api_version: "v1",
    data: { app_id: EXAMPLE_APP, message: "A test event sent from the portal: nothing changed." },
  },
  attempts: [
    {
      attempt: 1,
      attempted_at: EXAMPLE_DELIVERY.attempted_at,
      url: EXAMPLE_DELIVERY.url,
      outcome: "delivered",
      response_status: 200,
      latency_ms: 84,
      response_body: '{"received":true}',
      error: null,
      error_code: null,
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "verification-api-webhooks/1",
        "webhook-id": EXAMPLE_DELIVERY.event_id,
        "webhook-timestamp": "1795867500",
        "webhook-signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
      },
    },
  ],
});

interface OperationDefinition extends OperationDefinitionBase {
  tag: "Account" | "Apps" | "Webhooks" | "Requests" | "Verifications" | "Usage" | "People";
  query?: z.ZodMiniObject;
  body?: { schema: keyof typeof REQUEST_SCHEMAS; required: boolean; example: Json };
  success: { status: 200 | 201 | 202; description: string; schema: string; example?: Json; noStore?: true };
}

const OPERATIONS: Record<PortalFunction, OperationDefinition> = {
  "who-am-i": {
    operationId: "getMe",
    summary: "Who is signed in",
    description: `Your username, your role and your organisation, with how many apps it owns against its limit (${APPS_PER_ORGANIZATION}).`,
    tag: "Account",
    success: {
      status: 200,
      description: "The signed-in member",
      schema: "Me",
      example: {
        username: "ayse",
        role: "owner",
        organization_id: "org_01JDQ8X1A2B3C4D5E6F7G8H9J0",
        organization_name: "Acme Üniversite",
        environment: "sandbox",
        limits: {
          apps: { used: 3, limit: APPS_PER_ORGANIZATION },
          sending: {
            test: { most: SENDING_LIMITS.test.most, per_seconds: SENDING_LIMITS.test.perSeconds },
            manual: { most: SENDING_LIMITS.manual.most, per_seconds: SENDING_LIMITS.manual.perSeconds },
          },
        },
      },
    },
    problems: ["internal_error"],
  },
  "list-apps": {
    operationId: "listApps",
    summary: "List apps",
    description:
      "Your organisation's apps in the order they were created, each with every key it had (never a key itself).",
    tag: "Apps",
    query: appsQuerySchema,
    success: {
      status: 200,
      description: "One page of apps",
      schema: "AppPage",
      example: { data: [EXAMPLE_PORTAL_APP], next_cursor: null },
    },
    problems: ["validation_failed", "invalid_cursor", "internal_error"],
  },
  "create-app": {
    operationId: "createApp",
    summary: "Create an app",
    description: `A new app of your organisation with its first API key and its webhook signing secret, both shown in this answer only: only the key's hash is kept, the secret sealed. A refused \`webhook_url\` is \`422\` on that field. An organisation owns at most ${APPS_PER_ORGANIZATION} apps: one more is \`409 limit_reached\`, and nothing is created.`,
    tag: "Apps",
    body: {
      schema: "NewAppRequest",
      required: true,
      example: { name: "Admissions backend", key_name: "Admissions, production servers" },
    },
    success: {
      status: 201,
      description: "Created: copy the key and the secret now",
      schema: "CreatedApp",
      noStore: true,
    },
    problems: [...BODY_PROBLEMS, "limit_reached", "internal_error"],
  },
  "rotate-key": {
    operationId: "rotateKey",
    summary: "Rotate the app's key",
    description: `A new key, shown once. The live key keeps working for the grace period (24 hours by default, at most 7 days), so callers can switch without downtime. An app has at most ${LIVE_KEYS_PER_APP} live keys: revoke one first.`,
    tag: "Apps",
    body: {
      schema: "RotateKeyRequest",
      required: false,
      example: { grace_seconds: 3600, name: "Admissions, new servers" },
    },
    success: { status: 201, description: "The new key; copy it now", schema: "RotatedKey", noStore: true },
    problems: [...BODY_PROBLEMS, "app_not_found", "too_many_live_keys", "concurrent_change", "internal_error"],
  },
  "rename-key": {
    operationId: "renameKey",
    summary: "Rename a key",
    description:
      "Gives one of the app's keys (live, expired or revoked) a new name, so people can tell keys apart: which servers hold it, and whether it is still used (`last_used_at`) before revoking it.",
    tag: "Apps",
    body: { schema: "RenameKeyRequest", required: true, example: { name: "Admissions, old servers" } },
    success: { status: 200, description: "The key, renamed", schema: "RenamedKey" },
    problems: [...BODY_PROBLEMS, "app_not_found", "key_not_found", "internal_error"],
  },
  "revoke-key": {
    operationId: "revokeKey",
    summary: "Revoke a key",
    description:
      "Stops a live key now. Callers may still pass with it while the API's authorizer holds its answer (up to 5 minutes). A key that no longer passes is `404`.",
    tag: "Apps",
    success: { status: 200, description: "The key, revoked", schema: "RevokedKey" },
    problems: ["app_not_found", "key_not_found", "concurrent_change", "internal_error"],
  },
  "set-webhook": {
    operationId: "setWebhook",
    summary: "Set the webhook destination",
    description:
      "Where the app's events go: an https URL. Deployed stacks refuse addresses that are not public; `http` to a loopback address is accepted only by the local sandbox runtime.",
    tag: "Webhooks",
    body: {
      schema: "WebhookDestinationRequest",
      required: true,
      example: { url: "https://hooks.acme.example/verifications" },
    },
    success: { status: 200, description: "The destination", schema: "WebhookDestination" },
    problems: [...BODY_PROBLEMS, "app_not_found", "internal_error"],
  },
  "rotate-webhook-secret": {
    operationId: "rotateWebhookSecret",
    summary: "Rotate the signing secret",
    description:
      "A new signing secret, shown once. For 24 hours events carry two signatures, one with each secret, so receivers can switch over.",
    tag: "Webhooks",
    success: { status: 201, description: "The new secret; copy it now", schema: "RotatedSecret", noStore: true },
    problems: ["app_not_found", "concurrent_change", "internal_error"],
  },
  "test-webhook": {
    operationId: "testWebhook",
    summary: "Send a test event",
    description: `Sends a signed \`webhook.test\` event to the destination now and answers how the delivery went: the status, the latency and the first 1 KiB of the answer. A failed test event is not retried on its own; replay it. An app may send ${SENDING_LIMITS.test.most} test event every ${SENDING_LIMITS.test.perSeconds} s: another within that time is \`429 rate_limited\`, with the seconds to wait in \`Retry-After\`.`,
    tag: "Webhooks",
    success: {
      status: 200,
      description: "The event and its delivery",
      schema: "TestDelivery",
      example: { event_id: EXAMPLE_DELIVERY.event_id, delivery: EXAMPLE_DELIVERY },
    },
    problems: ["app_not_found", "webhook_not_set", "rate_limited", "internal_error"],
  },
  "list-deliveries": {
    operationId: "listDeliveries",
    summary: "List delivery attempts",
    description:
      "The app's delivery attempts, newest first: the event, the attempt's number, the URL, the response status, the latency, the first 1 KiB of the response body and, for a failure, why. Kept 30 days.",
    tag: "Webhooks",
    query: deliveriesQuerySchema,
    success: {
      status: 200,
      description: "One page of attempts",
      schema: "DeliveryPage",
      example: { data: [EXAMPLE_DELIVERY], next_cursor: null },
    },
    problems: ["app_not_found", "validation_failed", "invalid_cursor", "internal_error"],
  },
  "list-app-events": {
    operationId: "listAppEvents",
    summary: "List the app's events",
    description:
      "The app's events of the last 30 days, newest first, also those that never had a destination: each with the JSON it sends, and every attempt to send it, numbered across replays, with the headers it sent. With `verification_id`, that verification's events oldest first: its timeline. Payloads carry personal data: each read is recorded in the audit trail.",
    tag: "Webhooks",
    query: appEventsQuerySchema,
    success: {
      status: 200,
      description: "One page of events",
      schema: "AppEventPage",
      example: { data: [EXAMPLE_EVENT], next_cursor: null },
    },
    problems: ["app_not_found", "validation_failed", "invalid_cursor", "internal_error"],
  },
  "send-event": {
    operationId: "sendEvent",
    summary: "Send an event now",
    description: `Sends one of your events to the app's destination as it now is, whether it was delivered, parked, or never sent because no destination was set then: a new round of attempts due now, its first made at once by the delivery queue (within a minute by the schedule should the queue not take it), retried on the usual schedule. The same action as replaying it. An event still being delivered on its schedule is \`409 event_pending\`. An app may send or replay ${SENDING_LIMITS.manual.most} events by hand every ${SENDING_LIMITS.manual.perSeconds / 3600} hour, both routes together: beyond, \`429 rate_limited\`, with the seconds to wait in \`Retry-After\`.`,
    tag: "Webhooks",
    success: {
      status: 202,
      description: "Queued",
      schema: "Replay",
      example: { event_id: EXAMPLE_DELIVERY.event_id, status: "pending", next_attempt_at: "2026-11-22T12:06:00Z" },
    },
    problems: ["event_not_found", "event_pending", "rate_limited", "internal_error"],
  },
  "replay-event": {
    operationId: "replayEvent",
    summary: "Replay an event",
    description: `Delivers one of your events again, delivered or parked: a new round of attempts due now, its first made at once by the delivery queue (within a minute by the schedule should the queue not take it), retried on the usual schedule. An event still being delivered on its schedule is \`409 event_pending\`. An app may send or replay ${SENDING_LIMITS.manual.most} events by hand every ${SENDING_LIMITS.manual.perSeconds / 3600} hour, both routes together: beyond, \`429 rate_limited\`, with the seconds to wait in \`Retry-After\`.`,
    tag: "Webhooks",
    success: {
      status: 202,
      description: "Queued",
      schema: "Replay",
      example: { event_id: EXAMPLE_DELIVERY.event_id, status: "pending", next_attempt_at: "2026-11-22T12:06:00Z" },
    },
    problems: ["event_not_found", "event_pending", "rate_limited", "internal_error"],
  },
  "list-app-requests": {
    operationId: "listAppRequests",
    summary: "List the app's requests",
    description: `The app's requests to the public API of the last ${KEEP_REQUESTS_DAYS} days, newest first, as the API answered them: every request that could change something (every \`POST\` and \`DELETE\`) and every refused one; a read that succeeded is not kept. A refusal shows its problem \`code\` and, for \`validation_failed\`, each invalid field's path and code (never the value sent). Filter by \`status\` class and by time. No personal data is kept with a request, so reading the log is not recorded in the audit trail.`,
    tag: "Requests",
    query: appRequestsQuerySchema,
    success: {
      status: 200,
      description: "One page of requests",
      schema: "KeptRequestPage",
      example: { data: [EXAMPLE_REQUEST], next_cursor: null },
    },
    problems: ["app_not_found", "validation_failed", "invalid_cursor", "internal_error"],
  },
  "lookup-verifications": {
    operationId: "lookupVerifications",
    summary: "Look up a verification",
    description:
      "Finds verifications across every app of your organisation by what you have at hand: a verification id, the `request_id` of an API answer (its `Request-Id` header, or the problem body's `request_id`), or the `external_reference_id` you created it with (exactly). A request is kept 30 days when it could change something (every `POST` and `DELETE`) or was refused; a read that succeeded is not kept. A request that named or created no verification (a refused create) comes back on its own, with `verification: null`. Without `q`, your organisation's most recent verifications. At most `limit`, newest first, each with its app; every lookup is recorded in the audit trail.",
    tag: "Verifications",
    query: lookupQuerySchema,
    success: { status: 200, description: "What was found", schema: "LookupPage" },
    problems: ["validation_failed", "internal_error"],
  },
  "search-verifications": {
    operationId: "searchVerifications",
    summary: "Search verifications",
    description:
      "One app's verifications, newest first, as the public API shows them (without upload instructions): by your `external_reference_id`, by status, by creation window. Each search is recorded in the audit trail.",
    tag: "Verifications",
    query: portalSearchQuerySchema,
    success: { status: 200, description: "One page of verifications", schema: "VerificationPage" },
    problems: ["app_not_found", "validation_failed", "invalid_cursor", "internal_error"],
  },
  "view-verification": {
    operationId: "getVerification",
    summary: "Read a verification",
    description:
      "One verification of your organisation's apps, as the public API shows it. Each read is recorded in the audit trail.",
    tag: "Verifications",
    success: { status: 200, description: "The verification", schema: "Verification" },
    problems: ["verification_not_found", "internal_error"],
  },
  "read-usage": {
    operationId: "readUsage",
    summary: "Usage",
    description:
      "Verifications that reached their final state, per UTC day and app, by outcome: the last 30 days unless `from` and `to` say otherwise, every app of your organisation unless `app_id` names one. Counted once per verification, on the day it became final.",
    tag: "Usage",
    query: usageQuerySchema,
    success: {
      status: 200,
      description: "One row per day and app that has counts",
      schema: "UsagePage",
      example: {
        data: [
          {
            day: "2026-11-22",
            app_id: EXAMPLE_APP,
            verified: 41,
            rejected: 3,
            inconclusive: 1,
            failed: 2,
            expired: 5,
            total: 52,
          },
        ],
        next_cursor: null,
      },
    },
    problems: ["app_not_found", "validation_failed", "internal_error"],
  },
  "list-members": {
    operationId: "listMembers",
    summary: "List people",
    description: "Your organisation's people by username, with their roles.",
    tag: "People",
    query: membersQuerySchema,
    success: { status: 200, description: "One page of people", schema: "MemberPage" },
    problems: ["validation_failed", "invalid_cursor", "internal_error"],
  },
  "invite-member": {
    operationId: "inviteMember",
    summary: "Invite a person",
    description: `A new portal user of your organisation with a role. The pool mails them the invitation with a temporary password at \`email\`, and nobody else sees it; their first sign-in sets their own. A username the pool has already is \`user_exists\`, whoever has it. An organisation has at most ${MEMBERS_PER_ORGANIZATION} members and ${PENDING_INVITES_PER_ORGANIZATION} invitations not yet accepted: one more is \`409 limit_reached\`, naming the limit, and nobody is invited.`,
    tag: "People",
    body: {
      schema: "InviteRequest",
      required: true,
      example: { username: "mehmet", email: "mehmet@example.com.tr", role: "developer" },
    },
    success: { status: 201, description: "Invited", schema: "Invited", noStore: true },
    problems: [...BODY_PROBLEMS, "user_exists", "limit_reached", "internal_error"],
  },
  "get-member": {
    operationId: "getMember",
    summary: "Read a person",
    description: "A member of your organisation: username, role, since when.",
    tag: "People",
    success: { status: 200, description: "The member", schema: "Member" },
    problems: ["member_not_found", "internal_error"],
  },
  "change-member-role": {
    operationId: "changeMemberRole",
    summary: "Change a person's role",
    description: `Gives a member of your organisation another role. An organisation keeps at least one owner: demoting the last is \`last_owner\`. The portal's authorizer holds a caller's role for up to ${PORTAL_AUTHORIZER.cacheTtlSeconds} s.`,
    tag: "People",
    body: { schema: "MemberRoleRequest", required: true, example: { role: "viewer" } },
    success: { status: 200, description: "The member, with the new role", schema: "Member" },
    problems: [...BODY_PROBLEMS, "member_not_found", "last_owner", "concurrent_change", "internal_error"],
  },
  "remove-member": {
    operationId: "removeMember",
    summary: "Remove a person",
    description: `Takes a member out of your organisation: their membership ends, every session of theirs is signed out, and their user is deleted (the username is free again). Requests they make are refused once the portal's authorizer lets go of its last answer, within ${PORTAL_AUTHORIZER.cacheTtlSeconds} s. Removing the last owner is \`last_owner\`.`,
    tag: "People",
    success: { status: 200, description: "The membership removed, as it was", schema: "Member" },
    problems: ["member_not_found", "last_owner", "concurrent_change", "internal_error"],
  },
};

/** The weakest role a route names, and so every role that may call it. */
function rolesOf(route: (typeof PORTAL_ROUTES)[number]): string {
  const groups: readonly string[] = "groups" in route ? route.groups : [];
  const roles = Object.entries(ROLE_GRANTS)
    .filter(([, grants]) => grants.some((grant) => groups.includes(grant)))
    .map(([role]) => `\`${role}\``);
  return roles.join(", ");
}

function responsesFor(definition: OperationDefinition): Json {
  const { success } = definition;
  return {
    [success.status]: jsonResponse(
      success.description,
      success.schema,
      success.noStore ? { "Cache-Control": headerRef("NoStore") } : {},
      { example: success.example },
    ),
    ...problemResponses(definition.problems, PORTAL_GATEWAY_RESPONSES),
  };
}

const PATH_PARAMETERS = {
  "{app_id}": "AppId",
  "{key_id}": "KeyId",
  "{event_id}": "EventId",
  "{verification_id}": "VerificationId",
  "{username}": "Username",
};

function apiOperation(route: (typeof PORTAL_ROUTES)[number], definition: OperationDefinition): Json {
  const { body } = definition;
  return apiOperationOf({
    operationId: definition.operationId,
    summary: definition.summary,
    description: `${definition.description}\n\n**Roles**: ${rolesOf(route)}.`,
    tags: [definition.tag],
    parameters: parametersOf(route.path, PATH_PARAMETERS, [], definition.query),
    ...(body ? { requestBody: jsonBody(body.schema, body.required, { example: body.example }) } : {}),
    responses: responsesFor(definition),
  });
}

const PORTAL_PAGE = {
  function: "portal-page",
  root: "/portal",
  name: "customer portal",
  description:
    "The customer portal, for a browser: open `/portal/` (a request without the trailing slash is redirected there). It signs in against the customer user pool and calls this API with the access token.",
  files: ["portal.js", "portal.css"],
  tag: "Page",
  idPrefix: "portal",
} as const;

const INFO_DESCRIPTION = `Your organisation's people manage its integration here: apps and API keys, the webhook destination and
its secret, what each delivery got back, the verifications your apps created, and usage. The portal page at
\`/portal/\` is built on exactly these routes.

**Authentication**: \`${PORTAL_AUTHORIZER.identityHeader}: Bearer <access token>\` of the environment's customer user
pool (a portal login, never an API key; an id token, another pool's or another client's token is 401). Each operation
names the roles that may call it; another role is 403. Everything is scoped to your organisation: another
organisation's app, key, event or verification is 404, as one that does not exist.

**Errors** are RFC 9457 problem details (\`${PROBLEM_CONTENT_TYPE}\`) with a stable \`code\`, as on the public API.
Every response carries \`${REQUEST_ID_HEADER}\`; every change is recorded in the audit trail with it.`;

/** The whole document. Pure: the same code always builds the same document. */
export function buildPortalDocument(): Json {
  return documentOf({
    title: "Verification portal API",
    description: INFO_DESCRIPTION,
    servers: { output: "PortalApiUrl", idPrefix: "portal-api", localUrl: "http://127.0.0.1:3006" },
    security: {
      name: "PortalToken",
      scheme: bearerScheme("An access token of the environment's customer user pool, for the portal page's client."),
    },
    tags: [
      { name: "Account", description: "Who is signed in" },
      { name: "Apps", description: "Apps and their API keys" },
      { name: "Webhooks", description: "The destination, its secret, test events, deliveries and replays" },
      { name: "Requests", description: "Your apps' requests to the public API, as it answered them" },
      { name: "Verifications", description: "Search and read your apps' verifications" },
      { name: "Usage", description: "Verifications per day by outcome" },
      { name: "People", description: "Your organisation's people (owners)" },
      { name: "Page", description: "The portal page and its files" },
    ],
    paths: pathsOf(
      PORTAL_ROUTES,
      (route) => apiOperation(route, OPERATIONS[route.function as PortalFunction]),
      PORTAL_PAGE,
    ),
    parameters: {
      AppId: pathParameter("app_id", "One of your organisation's apps; any other is 404.", EXAMPLE_APP),
      KeyId: pathParameter("key_id", "A key's `key_id`, as the app lists it.", EXAMPLE_KEY.key_id),
      EventId: pathParameter("event_id", "An event of one of your apps.", EXAMPLE_DELIVERY.event_id),
      VerificationId: pathParameter(
        "verification_id",
        "A verification of one of your apps.",
        "ver_01JDQ8Z6S7M3V4X5Y6Z7A8B9C0",
      ),
      Username: pathParameter("username", "A member of your organisation; anyone else is 404.", "mehmet"),
    },
    headers: {
      RequestId: AUDITED_REQUEST_ID_HEADER,
      NoStore: noStoreHeader("The answer holds a secret shown once: never cached"),
    },
    gatewayResponses: PORTAL_GATEWAY_RESPONSES,
    operations: OPERATIONS,
    responseSchemas: RESPONSE_SCHEMAS,
    requestSchemas: REQUEST_SCHEMAS,
  });
}

/** `openapi-portal.json`. */
export function renderPortalDocument(): string {
  return renderJson(buildPortalDocument(), "openapi-portal.json");
}
