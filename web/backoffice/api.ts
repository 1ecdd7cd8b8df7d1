/** The backoffice API, called through the shared bearer client (paths relative to `<base>/backoffice/`). */
import { BearerClient } from "../common/api-client.ts";
import type { Session } from "../common/session.ts";
import type {
  AuditFilter,
  AuditPage,
  ClaimResponse,
  DecisionBody,
  DocumentCopy,
  DocumentLink,
  ReviewFilter,
  ReviewPage,
  StaffVerification,
} from "./wire.ts";

/** `query` as a query string, leaving out what it does not set. */
function queryOf(query: Record<string, string | undefined>): URLSearchParams {
  return new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

export class BackofficeApi {
  readonly #client: BearerClient;

  /** `onSignedOut` runs when the API no longer accepts the session, after one renewal was tried. */
  constructor(session: Session, onSignedOut: () => void) {
    this.#client = new BearerClient(session, onSignedOut, "backoffice");
  }

  /** A page of the queue narrowed by `filter`; a cursor goes on only with the filter it was read with. */
  reviews(filter: ReviewFilter, cursor: string | null): Promise<ReviewPage> {
    const query = queryOf({ ...filter, limit: "20", cursor: cursor ?? undefined });
    return this.#client.json("GET", `v1/reviews?${query}`);
  }

  /** A page of the audit trail, newest first: one verification's, one actor's, or everyone's (admins only). */
  audit(filter: AuditFilter, cursor: string | null): Promise<AuditPage> {
    const query = queryOf({ ...filter, limit: "20", cursor: cursor ?? undefined });
    return this.#client.json("GET", `v1/audit?${query}`);
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
