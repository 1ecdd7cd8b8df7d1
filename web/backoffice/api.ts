/**
 * The backoffice API, called through the shared bearer client over the paths of
 * openapi-backoffice.json (`schema.ts`): a path, a method, a parameter or a body the document
 * does not have fails to compile.
 */
import { BearerClient, PAGE_API_ROOT, type SessionTokens } from "../common/api-client.ts";
import type { paths } from "./schema.ts";
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

/** The path parameter of one verification's routes. */
const verification = (verification_id: string) => ({ path: { verification_id } });

export class BackofficeApi {
  readonly #client: BearerClient<paths>;

  /** `onSignedOut` runs when the API no longer accepts the session, after one renewal was tried. */
  constructor(session: SessionTokens, onSignedOut: () => void, baseUrl: string = PAGE_API_ROOT) {
    this.#client = new BearerClient<paths>(session, onSignedOut, "backoffice", baseUrl);
  }

  get #api() {
    return this.#client.api;
  }

  /** A page of the queue narrowed by `filter`; a cursor goes on only with the filter it was read with. */
  reviews(filter: ReviewFilter, cursor: string | null): Promise<ReviewPage> {
    return this.#client.body(
      this.#api.GET("/backoffice/v1/reviews", {
        params: { query: { ...filter, limit: 20, cursor: cursor ?? undefined } },
      }),
    );
  }

  /** A page of the audit trail, newest first: one verification's, one actor's, or everyone's (admins only). */
  audit(filter: AuditFilter, cursor: string | null): Promise<AuditPage> {
    return this.#client.body(
      this.#api.GET("/backoffice/v1/audit", {
        params: { query: { ...filter, limit: 20, cursor: cursor ?? undefined } },
      }),
    );
  }

  verification(id: string): Promise<StaffVerification> {
    return this.#client.body(
      this.#api.GET("/backoffice/v1/verifications/{verification_id}", { params: verification(id) }),
    );
  }

  /** A link to one copy, as JSON: a browser cannot read where a cross-origin redirect points. */
  document(id: string, copy: DocumentCopy): Promise<DocumentLink> {
    return this.#client.body(
      this.#api.GET("/backoffice/v1/verifications/{verification_id}/document", {
        params: { ...verification(id), query: { copy } },
      }),
    );
  }

  claim(id: string): Promise<ClaimResponse> {
    return this.#client.body(
      this.#api.POST("/backoffice/v1/reviews/{verification_id}/claim", { params: verification(id) }),
    );
  }

  /** Asks e-Devlet again for an item it gave no answer for: the verification, its answer awaited. */
  askIssuerAgain(id: string): Promise<StaffVerification> {
    return this.#client.body(
      this.#api.POST("/backoffice/v1/reviews/{verification_id}/issuer-lookup", { params: verification(id) }),
    );
  }

  /** Decides the review read at `sequence`: the API refuses it when the verification changed since. */
  decide(id: string, sequence: number, decision: DecisionBody): Promise<StaffVerification> {
    return this.#client.body(
      this.#api.POST("/backoffice/v1/reviews/{verification_id}/decision", {
        params: { ...verification(id), header: { "If-Match": `"${sequence}"` } },
        body: decision,
      }),
    );
  }
}
