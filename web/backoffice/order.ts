/**
 * The lists the console offers, in its order: each value of an enum of openapi-backoffice.json
 * (`values.ts`) with its place here and its label in every language (`text-en.ts`, `text-tr.ts`,
 * `../common/words-*.ts`), or the console fails to compile.
 */
import { inOrder, type LabelledIn } from "../common/order.ts";
import type { TextKey } from "./text-en.ts";
import * as values from "./values.ts";

/** Why a reviewer rejects a document, in the order the decision form offers them. */
export const REJECTION_CODES = inOrder(values.REJECTION_CODES, {
  document_altered: 1,
  not_genuine: 2,
  subject_mismatch: 3,
  document_too_old: 4,
  original_pdf_required: 5,
  student_not_active: 6,
  student_not_accommodated: 7,
  not_graduated: 8,
  criminal_record_present: 9,
  document_unreadable: 10,
  other: 11,
}) satisfies readonly LabelledIn<TextKey, "reason">[];

/** Why a verification waits for a person, in the order the queue's filter offers them. */
export const REVIEW_REASONS = inOrder(values.REVIEW_REASONS, {
  issuer_unavailable: 1,
  fields_incomplete: 2,
  original_pdf_not_provided: 3,
  review_requested: 4,
}) satisfies readonly LabelledIn<TextKey, "reason">[];

/** What an audit record says was done, in the order the trail's filter offers them: staff's work first, then the portal's, then operators'. */
export const AUDIT_ACTIONS = inOrder(values.AUDIT_ACTIONS, {
  "review.claimed": 1,
  "review.decided": 2,
  "review.issuer_asked": 3,
  "document.viewed": 4,
  "verification.viewed": 5,
  "verifications.searched": 6,
  "events.viewed": 7,
  "audit.viewed": 8,
  "app.created": 9,
  "key.created": 10,
  "key.revoked": 11,
  "key.renamed": 12,
  "webhook.updated": 13,
  "webhook.secret_rotated": 14,
  "webhook.tested": 15,
  "event.replayed": 16,
  "user.invited": 17,
  "member.removed": 18,
  "member.role_changed": 19,
  "member.disabled": 20,
  "organization.created": 21,
  "app.attached": 22,
  "app.disabled": 23,
  "app.enabled": 24,
  "webhook.secrets_resealed": 25,
  "staff.added": 26,
  "staff.group_added": 27,
  "staff.group_removed": 28,
  "staff.disabled": 29,
  "staff.enabled": 30,
  "verification.erased": 31,
}) satisfies readonly LabelledIn<TextKey, "action">[];
