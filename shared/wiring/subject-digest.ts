import { kmsSubjectDigest } from "../adapters/kms-subject-digest.ts";
import type { SubjectDigest } from "../ports/subject-digest.ts";
import { kmsClient } from "./clients.ts";
import type { FunctionConfig } from "./config.ts";

/** A function's keyed digest of expected identity numbers: the KMS HMAC key `SUBJECT_KEY_ID` names. */
export function subjectDigest(config: FunctionConfig): SubjectDigest {
  return kmsSubjectDigest(kmsClient(), config.setting("SUBJECT_KEY_ID"));
}
