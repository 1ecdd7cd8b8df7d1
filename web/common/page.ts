/** What every page reads from itself: the identity settings the serving function wrote into its meta tags. */
import type { IdentityConfig } from "./cognito.ts";

function meta(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim() ?? "";
}

/** The pool's endpoint and the page's client, or undefined when the page was opened other than through its API. */
export function pageIdentity(): IdentityConfig | undefined {
  const identity = { endpoint: meta("identity-endpoint"), clientId: meta("client-id") };
  const configured =
    /^https?:\/\//.test(identity.endpoint) && identity.clientId !== "" && !identity.clientId.startsWith("%");
  return configured ? identity : undefined;
}
