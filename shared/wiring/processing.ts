import { libraryDocumentReader } from "../adapters/documents/reader.ts";
import { issuerAuthority } from "./authority.ts";
import { clock, type FunctionConfig } from "./config.ts";
import { log } from "./log.ts";
import { documentStore, verificationStore } from "./stores.ts";

/** Waits, as a sandbox review does before its forced decision. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What taking a verification through its checks needs. */
export function processing(config: FunctionConfig) {
  return {
    verifications: verificationStore(config),
    documents: documentStore(config),
    reader: libraryDocumentReader,
    authority: issuerAuthority(),
    clock,
    log,
    sleep,
  };
}
