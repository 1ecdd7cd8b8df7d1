import path from "node:path";
import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { libraryDocumentReader } from "../adapters/documents/reader.ts";
import { folderCatalogue } from "../adapters/folder-catalogue.ts";
import { httpAuthority } from "../adapters/http-authority.ts";
import { secretString } from "../adapters/sealing-key.ts";
import { readSettings } from "../declarations/settings.ts";
import type { Authority } from "../ports/authority.ts";
import type { FunctionConfig } from "./config.ts";

/** The issuer-lookup bearer secret: `AUTHORITY_SECRET` (local) or the secret `AUTHORITY_SECRET_ARN` names (AWS). */
export async function authoritySecret(): Promise<string> {
  const { AUTHORITY_SECRET, AUTHORITY_SECRET_ARN } = readSettings(["AUTHORITY_SECRET", "AUTHORITY_SECRET_ARN"]);
  if (AUTHORITY_SECRET) return AUTHORITY_SECRET;
  if (!AUTHORITY_SECRET_ARN) throw new Error("Invalid configuration: set AUTHORITY_SECRET or AUTHORITY_SECRET_ARN");
  const secret = await secretString(new SecretsManagerClient({}), AUTHORITY_SECRET_ARN);
  if (!secret) throw new Error("The authority secret has no string value");
  return secret;
}

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
