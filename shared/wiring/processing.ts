import { libraryDocumentReader } from "../adapters/documents/reader.ts";
import { DEFAULT_RETRY_WINDOW_SECONDS } from "../domain/issuer.ts";
import { clock, type FunctionConfig } from "./config.ts";
import { log } from "./log.ts";
import { issuerQueue } from "./queues.ts";
import { documentStore } from "./stores/documents.ts";
import { verificationStore } from "./stores/verifications.ts";
import { subjectDigest } from "./subject-digest.ts";

/** Waits, as a sandbox review does before its forced decision. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What taking a verification through its checks needs. */
export function processing(config: FunctionConfig) {
  return {
    verifications: verificationStore(config),
    documents: documentStore(config),
    reader: libraryDocumentReader,
    issuer: issuerQueue(config),
    subjects: subjectDigest(config),
    clock,
    log,
    sleep,
  };
}

/** The retry window of an unavailable issuer (`ISSUER_RETRY_WINDOW_S`), in seconds. */
export function retryWindowSeconds(config: FunctionConfig): number {
  const declared = config.optional("ISSUER_RETRY_WINDOW_S");
  return declared ? Number(declared) : DEFAULT_RETRY_WINDOW_SECONDS;
}
