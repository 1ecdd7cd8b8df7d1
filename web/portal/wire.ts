/**
 * What the portal API answers and accepts, as the page reads it. The page imports nothing
 * from the service's code; a test checks these types against the API's own schemas.
 */

export type Role = "owner" | "developer" | "viewer";

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface Me {
  username: string;
  role: Role;
  organization_id: string;
  organization_name: string;
  environment: "sandbox" | "production";
}

export interface Key {
  key_id: string;
  prefix: string;
  status: "active" | "expiring" | "expired" | "revoked";
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface App {
  app_id: string;
  name: string;
  environment: "sandbox" | "production";
  status: "active" | "disabled";
  webhook_url: string | null;
  previous_webhook_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  keys: Key[];
}

export interface CreatedApp extends App {
  api_key: string;
  webhook_secret: string;
}

export interface RotatedKey {
  app_id: string;
  api_key: string;
  key: Key;
  expiring: Key[];
}

export interface RotatedSecret {
  app_id: string;
  webhook_secret: string;
  previous_secret_expires_at: string;
}

export interface Delivery {
  event_id: string;
  event_type: string | null;
  attempt: number;
  attempted_at: string;
  url: string;
  outcome: "delivered" | "failed";
  response_status: number | null;
  latency_ms: number;
  response_body: string | null;
  error: string | null;
}

export interface TestDelivery {
  event_id: string;
  delivery: Delivery;
}

export interface Replay {
  event_id: string;
  status: "pending";
  next_attempt_at: string;
}

export const STATUSES = ["awaiting_upload", "processing", "in_review", "completed", "failed", "expired"] as const;
export type Status = (typeof STATUSES)[number];

export interface Verification {
  verification_id: string;
  status: Status;
  result: "verified" | "rejected" | "inconclusive" | null;
  document_type: string;
  external_reference_id: string | null;
  original_filename: string | null;
  reason_code: string;
  message: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  checks: { name: string; outcome: "passed" | "failed" | "skipped"; detail: string }[];
}

export const OUTCOMES = ["verified", "rejected", "inconclusive", "failed", "expired"] as const;
export type Outcome = (typeof OUTCOMES)[number];

export type UsageRow = { day: string; app_id: string; total: number } & Record<Outcome, number>;

export interface Person {
  username: string;
  role: Role;
  created_at: string;
}

export interface Invited {
  username: string;
  role: Role;
  temporary_password: string;
}
