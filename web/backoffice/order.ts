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
  "document.viewed": 3,
  "verification.viewed": 4,
  "verifications.searched": 5,
  "events.viewed": 6,
  "audit.viewed": 7,
  "app.created": 8,
  "key.created": 9,
  "key.revoked": 10,
  "key.renamed": 11,
  "webhook.updated": 12,
  "webhook.secret_rotated": 13,
  "webhook.tested": 14,
  "event.replayed": 15,
  "user.invited": 16,
  "member.removed": 17,
  "member.role_changed": 18,
  "member.disabled": 19,
  "organization.created": 20,
  "app.attached": 21,
  "app.disabled": 22,
  "app.enabled": 23,
  "webhook.secrets_resealed": 24,
  "staff.added": 25,
  "staff.group_added": 26,
  "staff.group_removed": 27,
  "staff.disabled": 28,
  "staff.enabled": 29,
  "verification.erased": 30,
}) satisfies readonly LabelledIn<TextKey, "action">[];
