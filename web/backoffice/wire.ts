/**
 * The backoffice API as the console reads and writes it: names for the shapes of
 * openapi-backoffice.json, which `npm run openapi` generates into `schema.ts`. Types only, so
 * the bundle carries none of the server's schemas, and the compiler refuses a field or a code
 * the document does not have. test/backoffice/console.test.ts ties the constants below to the
 * document; the lists the console offers are in `order.ts`.
 */
import { DOCUMENT_TYPE_CODES } from "../common/document-types.ts";
import type { components, operations } from "./schema.ts";

type Schemas = components["schemas"];

export type ReviewEntry = Schemas["ReviewEntry"];
/** A page of the queue, the cursor of the next page (null on the last), and how many wait in all. */
export type ReviewPage = Schemas["ReviewPage"];
/** What the queue can be narrowed to: one document type, one reason, or both. */
export type ReviewFilter = Pick<
  NonNullable<operations["listReviews"]["parameters"]["query"]>,
  "document_type" | "reason_code"
>;
export type DocumentType = ReviewEntry["document_type"];
export type ReviewReason = ReviewEntry["reason_code"];
export type AuditPage = Schemas["AuditPage"];
export type AuditRecord = Schemas["AuditRecord"];
/** Whose records the audit trail shows: one verification's, one actor's (by `sub`), or everyone's. */
export type AuditFilter = Pick<
  NonNullable<operations["readAudit"]["parameters"]["query"]>,
  "verification_id" | "actor" | "action" | "since" | "until"
>;
/** Who holds a review's claim, and until when. */
export type Claim = NonNullable<ReviewEntry["claim"]>;
export type ClaimResponse = Schemas["Claim"];
export type StaffVerification = Schemas["StaffVerification"];
export type DocumentCopy = operations["viewDocument"]["parameters"]["query"]["copy"];
/** `GET .../document?copy=` with `Accept: application/json`: a presigned link valid a minute. */
export type DocumentLink = Schemas["DocumentLink"];
export type DecisionBody = Schemas["ReviewDecision"];
export type RejectionCode = NonNullable<DecisionBody["reason_code"]>;
/** A `code` the backoffice API refuses with. */
export type ProblemCode = Schemas["Problem"]["code"];

/** The document types the queue can be narrowed to, in the order the filter offers them. */
export const DOCUMENT_TYPES = DOCUMENT_TYPE_CODES satisfies readonly DocumentType[];

/** The longest note the API takes: the `maxLength` of `ReviewDecision.note`. */
export const MAX_NOTE_LENGTH = 1000;
