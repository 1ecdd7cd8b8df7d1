import { libraryDocumentReader } from "../adapters/documents/reader.ts";
import type { RequestLinker } from "../adapters/dynamodb-writes.ts";
import { DEFAULT_RETRY_WINDOW_SECONDS } from "../domain/issuer.ts";
import { clock, type FunctionConfig } from "./config.ts";
import { log } from "./log.ts";
import { issuerQueue } from "./queues.ts";
import { documentStore } from "./stores/documents.ts";
import { verificationStore } from "./stores/verifications.ts";
import { subjectDigest } from "./subject-digest.ts";

/** Waits, as a sandbox review does before its forced decision. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What taking a verification through its checks needs; an API request's changes kept with its record through `requests`. */
export function processing(config: FunctionConfig, requests?: RequestLinker) {
  return {
    verifications: verificationStore(config, undefined, requests),
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
