/**
 * The keyed digest an expected identity number (`expected_subject.identity_number`) is kept as
 * until the decision: the same number always gives the same digest, and without the stage's key
 * nobody can tell which number a digest is of (11 digits are too few for an unkeyed hash).
 */
export interface SubjectDigest {
  digest(identityNumber: string): Promise<string>;
}
