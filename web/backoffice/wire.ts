/**
 * The backoffice API as the console reads and writes it: names for the shapes of
 * openapi-backoffice.json, which `npm run openapi` generates into `schema.ts`. Types only, so
 * the bundle carries none of the server's schemas, and the compiler refuses a field or a code
 * the document does not have. test/backoffice/console.test.ts ties the constants below to the
 * document.
 */
import type { components, operations } from "./schema.ts";

type Schemas = components["schemas"];

export type ReviewEntry = Schemas["ReviewEntry"];
/** A page of the queue, and the cursor of the next page, null on the last. */
export type ReviewPage = Schemas["ReviewPage"];
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

/** Why a reviewer rejects a document, in the order the form offers them. */
export const REJECTION_CODES = [
  "document_altered",
  "not_genuine",
  "subject_mismatch",
  "student_not_active",
  "student_not_accommodated",
  "document_unreadable",
  "other",
] as const satisfies readonly RejectionCode[];

/** The longest note the API takes: the `maxLength` of `ReviewDecision.note`. */
export const MAX_NOTE_LENGTH = 1000;
