/** The portal API, called through the shared bearer client (paths relative to `<base>/portal/`). */
import { BearerClient } from "../common/api-client.ts";
import type { Session } from "../common/session.ts";
import type {
  AppEventPage,
  AppPage,
  CreatedApp,
  DeliveryFilter,
  DeliveryPage,
  EventType,
  Invite,
  Invited,
  LookupPage,
  Me,
  Member,
  MemberPage,
  MemberRole,
  NewApp,
  NewWebhook,
  RenamedKey,
  RenameKey,
  Replay,
  RevokedKey,
  Role,
  RotatedKey,
  RotatedSecret,
  RotateKey,
  Search,
  TestDelivery,
  UsagePage,
  Verification,
  VerificationPage,
  WebhookDestination,
} from "./wire.ts";

const app = (id: string) => `v1/apps/${encodeURIComponent(id)}`;

/** `?name=value&…` of the values that are set. */
function query(values: Record<string, string | undefined | null>): string {
  const set = Object.entries(values).filter((entry): entry is [string, string] => Boolean(entry[1]));
  return set.length === 0 ? "" : `?${new URLSearchParams(set)}`;
}

export class PortalApi {
  readonly #client: BearerClient;

  constructor(session: Session, onSignedOut: () => void) {
    this.#client = new BearerClient(session, onSignedOut, "portal");
  }

  me(): Promise<Me> {
    return this.#client.json("GET", "v1/me");
  }

  apps(cursor: string | null = null): Promise<AppPage> {
    return this.#client.json("GET", `v1/apps${query({ limit: "100", cursor })}`);
  }

  createApp(name: string, webhookUrl?: string, keyName?: string): Promise<CreatedApp> {
    const body: NewApp = {
      name,
      ...(webhookUrl ? { webhook_url: webhookUrl } : {}),
      ...(keyName ? { key_name: keyName } : {}),
    };
    return this.#client.json("POST", "v1/apps", { body });
  }

  rotateKey(appId: string, graceSeconds: number, name?: string): Promise<RotatedKey> {
    const body: RotateKey = { grace_seconds: graceSeconds, ...(name ? { name } : {}) };
    return this.#client.json("POST", `${app(appId)}/keys`, { body });
  }

  renameKey(appId: string, keyId: string, name: string): Promise<RenamedKey> {
    const body: RenameKey = { name };
    return this.#client.json("PATCH", `${app(appId)}/keys/${encodeURIComponent(keyId)}`, { body });
  }

  revokeKey(appId: string, keyId: string): Promise<RevokedKey> {
    return this.#client.json("DELETE", `${app(appId)}/keys/${encodeURIComponent(keyId)}`);
  }

  setWebhook(appId: string, url: string): Promise<WebhookDestination> {
    const body: NewWebhook = { url };
    return this.#client.json("PUT", `${app(appId)}/webhook`, { body });
  }

  rotateSecret(appId: string): Promise<RotatedSecret> {
    return this.#client.json("POST", `${app(appId)}/webhook/secret`);
  }

  testWebhook(appId: string): Promise<TestDelivery> {
    return this.#client.json("POST", `${app(appId)}/webhook/test`);
  }

  deliveries(appId: string, status: DeliveryFilter, cursor: string | null): Promise<DeliveryPage> {
    return this.#client.json("GET", `${app(appId)}/deliveries${query({ status, cursor, limit: "20" })}`);
  }

  replay(eventId: string): Promise<Replay> {
    return this.#client.json("POST", `v1/events/${encodeURIComponent(eventId)}/replay`);
  }

  events(appId: string, type: EventType | undefined, cursor: string | null): Promise<AppEventPage> {
    return this.#client.json("GET", `${app(appId)}/events${query({ type, cursor, limit: "20" })}`);
  }

  /** One verification's events of `appId`, in the order they happened, each with every attempt: one page. */
  timeline(appId: string, verificationId: string): Promise<AppEventPage> {
    return this.#client.json("GET", `${app(appId)}/events${query({ verification_id: verificationId, limit: "100" })}`);
  }

  sendEvent(eventId: string): Promise<Replay> {
    return this.#client.json("POST", `v1/events/${encodeURIComponent(eventId)}/send`);
  }

  search(search: Search, cursor: string | null): Promise<VerificationPage> {
    return this.#client.json("GET", `v1/verifications${query({ ...search, cursor, limit: "20" })}`);
  }

  /** Verifications of every app by id or reference; without `q`, the most recent. */
  lookup(q: string | undefined): Promise<LookupPage> {
    return this.#client.json("GET", `v1/lookup${query({ q, limit: "20" })}`);
  }

  verification(id: string): Promise<Verification> {
    return this.#client.json("GET", `v1/verifications/${encodeURIComponent(id)}`);
  }

  usage(from: string, to: string): Promise<UsagePage> {
    return this.#client.json("GET", `v1/usage${query({ from, to })}`);
  }

  people(): Promise<MemberPage> {
    return this.#client.json("GET", `v1/users${query({ limit: "100" })}`);
  }

  invite(username: string, role: Role, email: string): Promise<Invited> {
    const body: Invite = { username, role, email };
    return this.#client.json("POST", "v1/users", { body });
  }

  changeRole(username: string, role: Role): Promise<Member> {
    const body: MemberRole = { role };
    return this.#client.json("PATCH", `v1/users/${encodeURIComponent(username)}`, { body });
  }

  removeMember(username: string): Promise<Member> {
    return this.#client.json("DELETE", `v1/users/${encodeURIComponent(username)}`);
  }
}
