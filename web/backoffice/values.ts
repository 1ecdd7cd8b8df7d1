/**
 * The enums the page offers, in the document's order: generated from openapi-backoffice.json by
 * `npm run openapi` (openapi/page-types.ts). The order the page shows each in is declared beside
 * its labels, in `order.ts`.
 */

/** `/components/schemas/ReviewDecision/properties/reason_code` */
export const REJECTION_CODES = [
  "document_altered",
  "not_genuine",
  "subject_mismatch",
  "document_too_old",
  "original_pdf_required",
  "student_not_active",
  "student_not_accommodated",
  "not_graduated",
  "criminal_record_present",
  "document_unreadable",
  "other",
] as const;

/** `/components/schemas/ReviewEntry/properties/reason_code` */
export const REVIEW_REASONS = [
  "issuer_unavailable",
  "fields_incomplete",
  "original_pdf_not_provided",
  "review_requested",
] as const;

/** `/components/schemas/AuditRecord/properties/action` */
export const AUDIT_ACTIONS = [
  "review.claimed",
  "review.decided",
  "review.issuer_asked",
  "document.viewed",
  "verification.viewed",
  "verifications.searched",
  "events.viewed",
  "audit.viewed",
  "app.created",
  "key.created",
  "key.revoked",
  "key.renamed",
  "webhook.updated",
  "webhook.secret_rotated",
  "webhook.tested",
  "event.replayed",
  "user.invited",
  "member.removed",
  "member.role_changed",
  "member.disabled",
  "organization.created",
  "app.attached",
  "app.disabled",
  "app.enabled",
  "webhook.secrets_resealed",
  "staff.added",
  "staff.group_added",
  "staff.group_removed",
  "staff.disabled",
  "staff.enabled",
  "verification.erased",
] as const;
