import { libraryDocumentReader } from "../adapters/document-reader.ts";
import { sandboxAuthority } from "../adapters/sandbox-authority.ts";
import type { Authority } from "../ports/authority.ts";
import { clock, type FunctionConfig } from "./config.ts";
import { log } from "./log.ts";
import { documentStore, verificationStore } from "./stores.ts";

/**
 * The environment's issuing authority. The sandbox's answers by the reference's prefix;
 * production has no issuer integration configured yet, so its verifications end
 * inconclusive with reason authority_check_unavailable.
 */
function authority(config: FunctionConfig): Authority | undefined {
  return config.environment() === "sandbox" ? sandboxAuthority : undefined;
}

/** What taking a verification through its checks needs. */
export function processing(config: FunctionConfig) {
  return {
    verifications: verificationStore(config),
    documents: documentStore(config),
    reader: libraryDocumentReader,
    authority: authority(config),
    clock,
    log,
  };
}
