/**
 * The portal API, called through the shared bearer client over the paths of openapi-portal.json
 * (`schema.ts`): a path, a method, a parameter or a body the document does not have fails to
 * compile.
 */
import { BearerClient, PAGE_API_ROOT, type SessionTokens } from "../common/api-client.ts";
import type { paths } from "./schema.ts";
import type {
  AppEventPage,
  AppPage,
  CreatedApp,
  DeliveryFilter,
  DeliveryPage,
  EventType,
  Invited,
  KeptRequestPage,
  LookupPage,
  Me,
  Member,
  MemberPage,
  RenamedKey,
  Replay,
  RequestFilter,
  RevokedKey,
  Role,
  RotatedKey,
  RotatedSecret,
  Search,
  TestDelivery,
  UsagePage,
  Verification,
  VerificationPage,
  WebhookDestination,
} from "./wire.ts";

/** The path parameter of one app's routes. */
const app = (app_id: string) => ({ params: { path: { app_id } } });

export class PortalApi {
  readonly #client: BearerClient<paths>;

  /** `onSignedOut` runs when the API no longer accepts the session; `baseUrl` is where the API's paths start. */
  constructor(session: SessionTokens, onSignedOut: () => void, baseUrl: string = PAGE_API_ROOT) {
    this.#client = new BearerClient<paths>(session, onSignedOut, "portal", baseUrl);
  }

  get #api() {
    return this.#client.api;
  }

  me(): Promise<Me> {
    return this.#client.body(this.#api.GET("/portal/v1/me"));
  }

  apps(cursor: string | null = null): Promise<AppPage> {
    return this.#client.body(
      this.#api.GET("/portal/v1/apps", { params: { query: { limit: 100, cursor: cursor ?? undefined } } }),
    );
  }

  createApp(name: string, webhookUrl?: string, keyName?: string): Promise<CreatedApp> {
    const body = {
      name,
      ...(webhookUrl ? { webhook_url: webhookUrl } : {}),
      ...(keyName ? { key_name: keyName } : {}),
    };
    return this.#client.body(this.#api.POST("/portal/v1/apps", { body }));
  }

  rotateKey(appId: string, graceSeconds: number, name?: string): Promise<RotatedKey> {
    const body = { grace_seconds: graceSeconds, ...(name ? { name } : {}) };
    return this.#client.body(this.#api.POST("/portal/v1/apps/{app_id}/keys", { ...app(appId), body }));
  }

  renameKey(appId: string, keyId: string, name: string): Promise<RenamedKey> {
    return this.#client.body(
      this.#api.PATCH("/portal/v1/apps/{app_id}/keys/{key_id}", {
        params: { path: { app_id: appId, key_id: keyId } },
        body: { name },
      }),
    );
  }

  revokeKey(appId: string, keyId: string): Promise<RevokedKey> {
    return this.#client.body(
      this.#api.DELETE("/portal/v1/apps/{app_id}/keys/{key_id}", {
        params: { path: { app_id: appId, key_id: keyId } },
      }),
    );
  }

  setWebhook(appId: string, url: string): Promise<WebhookDestination> {
    return this.#client.body(this.#api.PUT("/portal/v1/apps/{app_id}/webhook", { ...app(appId), body: { url } }));
  }

  rotateSecret(appId: string): Promise<RotatedSecret> {
    return this.#client.body(this.#api.POST("/portal/v1/apps/{app_id}/webhook/secret", app(appId)));
  }

  testWebhook(appId: string): Promise<TestDelivery> {
    return this.#client.body(this.#api.POST("/portal/v1/apps/{app_id}/webhook/test", app(appId)));
  }

  deliveries(appId: string, status: DeliveryFilter, cursor: string | null): Promise<DeliveryPage> {
    return this.#client.body(
      this.#api.GET("/portal/v1/apps/{app_id}/deliveries", {
        params: { path: { app_id: appId }, query: { status, cursor: cursor ?? undefined, limit: 20 } },
      }),
    );
  }

  replay(eventId: string): Promise<Replay> {
    return this.#client.body(
      this.#api.POST("/portal/v1/events/{event_id}/replay", { params: { path: { event_id: eventId } } }),
    );
  }

  events(appId: string, type: EventType | undefined, cursor: string | null): Promise<AppEventPage> {
    return this.#client.body(
      this.#api.GET("/portal/v1/apps/{app_id}/events", {
        params: { path: { app_id: appId }, query: { type, cursor: cursor ?? undefined, limit: 20 } },
      }),
    );
  }

  /** One verification's events of `appId`, in the order they happened, each with every attempt: one page. */
  timeline(appId: string, verificationId: string): Promise<AppEventPage> {
    return this.#client.body(
      this.#api.GET("/portal/v1/apps/{app_id}/events", {
        params: { path: { app_id: appId }, query: { verification_id: verificationId, limit: 100 } },
      }),
    );
  }

  /** The app's kept requests, newest first, as `filter` narrows them. */
  requests(appId: string, filter: RequestFilter, cursor: string | null): Promise<KeptRequestPage> {
    return this.#client.body(
      this.#api.GET("/portal/v1/apps/{app_id}/requests", {
        params: { path: { app_id: appId }, query: { ...filter, cursor: cursor ?? undefined, limit: 20 } },
      }),
    );
  }

  sendEvent(eventId: string): Promise<Replay> {
    return this.#client.body(
      this.#api.POST("/portal/v1/events/{event_id}/send", { params: { path: { event_id: eventId } } }),
    );
  }

  search(search: Search, cursor: string | null): Promise<VerificationPage> {
    return this.#client.body(
      this.#api.GET("/portal/v1/verifications", {
        params: { query: { ...search, cursor: cursor ?? undefined, limit: 20 } },
      }),
    );
  }

  /** Verifications of every app by id or reference; without `q`, the most recent. */
  lookup(q: string | undefined): Promise<LookupPage> {
    return this.#client.body(
      this.#api.GET("/portal/v1/lookup", { params: { query: { q: q || undefined, limit: 20 } } }),
    );
  }

  verification(id: string): Promise<Verification> {
    return this.#client.body(
      this.#api.GET("/portal/v1/verifications/{verification_id}", { params: { path: { verification_id: id } } }),
    );
  }

  usage(from: string, to: string): Promise<UsagePage> {
    return this.#client.body(
      this.#api.GET("/portal/v1/usage", { params: { query: { from: from || undefined, to: to || undefined } } }),
    );
  }

  people(): Promise<MemberPage> {
    return this.#client.body(this.#api.GET("/portal/v1/users", { params: { query: { limit: 100 } } }));
  }

  invite(username: string, role: Role, email: string): Promise<Invited> {
    return this.#client.body(this.#api.POST("/portal/v1/users", { body: { username, role, email } }));
  }

  changeRole(username: string, role: Role): Promise<Member> {
    return this.#client.body(
      this.#api.PATCH("/portal/v1/users/{username}", { params: { path: { username } }, body: { role } }),
    );
  }

  removeMember(username: string): Promise<Member> {
    return this.#client.body(this.#api.DELETE("/portal/v1/users/{username}", { params: { path: { username } } }));
  }
}
