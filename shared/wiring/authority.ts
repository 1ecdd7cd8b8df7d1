import path from "node:path";
import { libraryDocumentReader } from "../adapters/documents/reader.ts";
import { folderCatalogue } from "../adapters/folder-catalogue.ts";
import { httpAuthority } from "../adapters/http-authority.ts";
import { readSettings } from "../declarations/settings.ts";
import type { Authority } from "../ports/authority.ts";
import type { FunctionConfig } from "./config.ts";
import { settingOrSecret } from "./secrets.ts";

/**
 * The issuer-lookup bearer secret: `AUTHORITY_SECRET` (local) or the secret `AUTHORITY_SECRET_ARN`
 * names (AWS), read once for the process: the client sends it and the service checks it on
 * every request.
 */
const authoritySecret = settingOrSecret("AUTHORITY_SECRET", "AUTHORITY_SECRET_ARN");

/** The environment's issuer, when an integration is configured (`AUTHORITY_URL`); else none. */
export function issuerAuthority(): Authority | undefined {
  const { AUTHORITY_URL } = readSettings(["AUTHORITY_URL"]);
  return AUTHORITY_URL ? httpAuthority({ url: AUTHORITY_URL, secret: authoritySecret }) : undefined;
}

/** What the project's own authority service needs: its certificates and a reader. */
export function authorityService(config: FunctionConfig) {
  const folders = config.setting("AUTHORITY_DOCUMENTS").split(path.delimiter).filter(Boolean);
  return { catalogue: folderCatalogue(folders), reader: libraryDocumentReader, secret: authoritySecret };
}
