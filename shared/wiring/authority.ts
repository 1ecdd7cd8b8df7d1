import path from "node:path";
import { libraryDocumentReader } from "../adapters/documents/reader.ts";
import { rememberingReader } from "../adapters/documents/remembering-reader.ts";
import { edevletFormAuthority } from "../adapters/edevlet/form.ts";
import { edevletMobileAuthority } from "../adapters/edevlet/mobile.ts";
import { folderCatalogue } from "../adapters/folder-catalogue.ts";
import { httpAuthority } from "../adapters/http-authority.ts";
import type { SettingName } from "../declarations/settings.ts";
import { isLoopbackAddress } from "../domain/addresses.ts";
import { EDEVLET_DEFAULT_MOBILE_URL, EDEVLET_DEFAULT_URL } from "../domain/edevlet.ts";
import type { EdevletProtocol } from "../domain/issuer.ts";
import type { Authority, ProbeStep } from "../ports/authority.ts";
import type { FunctionConfig } from "./config.ts";
import { log } from "./log.ts";
import { settingOrSecret } from "./secrets.ts";

/**
 * The issuer-lookup bearer secret: `AUTHORITY_SECRET` (local) or the secret `AUTHORITY_SECRET_ARN`
 * names (AWS), read at first use and kept.
 */
const authoritySecret = settingOrSecret("AUTHORITY_SECRET", "AUTHORITY_SECRET_ARN");

/**
 * `url`, the value of `setting`, when the issuer may be asked there: https, or plain http to a
 * loopback address (the local runtime's simulator). Anything else fails the cold start.
 */
function issuerUrl(setting: SettingName, url: string): string {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  if (parsed.protocol === "https:" || (parsed.protocol === "http:" && isLoopbackAddress(host))) return url;
  throw new Error(`Invalid configuration: ${setting} must be an https URL (or http to a loopback address), not ${url}`);
}

/**
 * The issuer the function asks, from its settings: e-Devlet over the web form (`EDEVLET_URL`)
 * or the mobile endpoint (`EDEVLET_MOBILE_URL`) as `EDEVLET_PROTOCOL` says (the form by default,
 * e-Devlet's own addresses by default); the issuer-lookup contract at `AUTHORITY_URL`; or none.
 */
export function issuerAuthority(config: FunctionConfig): Authority | undefined {
  const issuer = config.setting("ISSUER");
  if (issuer === "none") return undefined;
  if (issuer === "lookup") {
    const url = config.optional("AUTHORITY_URL");
    if (!url) throw new Error("Invalid configuration: ISSUER lookup needs AUTHORITY_URL");
    return httpAuthority({ url: issuerUrl("AUTHORITY_URL", url), secret: authoritySecret });
  }
  if (config.optional("EDEVLET_PROTOCOL") === "mobile") {
    const url = config.optional("EDEVLET_MOBILE_URL") ?? EDEVLET_DEFAULT_MOBILE_URL;
    return edevletMobileAuthority({ url: issuerUrl("EDEVLET_MOBILE_URL", url) });
  }
  const url = config.optional("EDEVLET_URL") ?? EDEVLET_DEFAULT_URL;
  return edevletFormAuthority({ url: issuerUrl("EDEVLET_URL", url) });
}

/**
 * What the canary asks: e-Devlet's web form at `EDEVLET_URL` (the only way in with a documented
 * negative answer), whichever way the lookups take; none when the issuer is not e-Devlet.
 */
export function canaryAuthority(config: FunctionConfig): Authority | undefined {
  if (config.setting("ISSUER") !== "edevlet") return undefined;
  const url = config.optional("EDEVLET_URL") ?? EDEVLET_DEFAULT_URL;
  return edevletFormAuthority({ url: issuerUrl("EDEVLET_URL", url) });
}

/**
 * e-Devlet (or its simulator) at `url` by `protocol`, telling `observe` each request and page:
 * what `ops issuer probe` runs from an operator's machine.
 */
export function edevletProbe(protocol: EdevletProtocol, url: string, observe: (step: ProbeStep) => void): Authority {
  return protocol === "mobile"
    ? edevletMobileAuthority({ url: issuerUrl("EDEVLET_MOBILE_URL", url), observe })
    : edevletFormAuthority({ url: issuerUrl("EDEVLET_URL", url), observe });
}

/**
 * What the e-Devlet simulator needs: its certificate folders (`SIMULATOR_DOCUMENTS`, separated
 * by the platform's path delimiter), a reader for the numbers they print (remembering each file
 * it read while the file stays the same), the key that signs its
 * session cookie (`SIMULATOR_KEY`, or in AWS the secret `SIMULATOR_KEY_ARN` names), its log and
 * the latency it adds to each answer (`SIMULATOR_LATENCY_MS`, none by default).
 */
export function edevletSimulatorPorts(config: FunctionConfig) {
  const folders = config.setting("SIMULATOR_DOCUMENTS").split(path.delimiter).filter(Boolean);
  return {
    catalogue: folderCatalogue(folders),
    reader: rememberingReader(libraryDocumentReader),
    key: settingOrSecret("SIMULATOR_KEY", "SIMULATOR_KEY_ARN"),
    log,
    latencyMs: Number(config.optional("SIMULATOR_LATENCY_MS") ?? 0),
  };
}
