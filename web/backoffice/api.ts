/** The backoffice API, called through the shared bearer client (paths relative to `<base>/backoffice/`). */
import { BearerClient } from "../common/api-client.ts";
import type { Session } from "../common/session.ts";
import type { ClaimResponse, DecisionBody, DocumentCopy, DocumentLink, ReviewPage, StaffVerification } from "./wire.ts";

export class BackofficeApi {
  readonly #client: BearerClient;

  /** `onSignedOut` runs when the API no longer accepts the session, after one renewal was tried. */
  constructor(session: Session, onSignedOut: () => void) {
    this.#client = new BearerClient(session, onSignedOut, "backoffice");
  }

  reviews(cursor: string | null): Promise<ReviewPage> {
    const query = new URLSearchParams({ limit: "20", ...(cursor === null ? {} : { cursor }) });
    return this.#client.json("GET", `v1/reviews?${query}`);
  }

  verification(id: string): Promise<StaffVerification> {
    return this.#client.json("GET", `v1/verifications/${encodeURIComponent(id)}`);
  }

  /** A link to one copy, as JSON: a browser cannot read where a cross-origin redirect points. */
  document(id: string, copy: DocumentCopy): Promise<DocumentLink> {
    return this.#client.json("GET", `v1/verifications/${encodeURIComponent(id)}/document?copy=${copy}`);
  }

  claim(id: string): Promise<ClaimResponse> {
    return this.#client.json("POST", `v1/reviews/${encodeURIComponent(id)}/claim`);
  }

  /** Decides the review read at `sequence`: the API refuses it when the verification changed since. */
  decide(id: string, sequence: number, decision: DecisionBody): Promise<StaffVerification> {
    return this.#client.json("POST", `v1/reviews/${encodeURIComponent(id)}/decision`, {
      body: decision,
      headers: { "If-Match": `"${sequence}"` },
    });
  }
}
