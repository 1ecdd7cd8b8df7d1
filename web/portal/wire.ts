/**
 * The portal API as the page reads and writes it: names for the shapes of openapi-portal.json,
 * which `npm run openapi` generates into `schema.ts`. Types only, so the page carries none of
 * the service's code, and the compiler refuses a field or a value the document does not have.
 * test/portal/page.test.ts ties the lists below to the document.
 */
import type { components, operations } from "./schema.ts";

type Schemas = components["schemas"];
/** The query string an operation takes. */
type Query<Operation extends keyof operations> = NonNullable<operations[Operation]["parameters"]["query"]>;

export type Me = Schemas["Me"];
export type Role = Me["role"];
export type Key = Schemas["Key"];
export type App = Schemas["App"];
export type AppPage = Schemas["AppPage"];
export type CreatedApp = Schemas["CreatedApp"];
export type RotatedKey = Schemas["RotatedKey"];
export type RevokedKey = Schemas["RevokedKey"];
export type RenamedKey = Schemas["RenamedKey"];
export type WebhookDestination = Schemas["WebhookDestination"];
export type RotatedSecret = Schemas["RotatedSecret"];
export type Delivery = Schemas["Delivery"];
export type DeliveryPage = Schemas["DeliveryPage"];
/** The deliveries filter: one outcome, or every attempt when absent. */
export type DeliveryFilter = Query<"listDeliveries">["status"];
export type TestDelivery = Schemas["TestDelivery"];
export type Replay = Schemas["Replay"];
export type AppEvent = Schemas["AppEvent"];
export type AppEventPage = Schemas["AppEventPage"];
export type EventType = AppEvent["type"];
export type EventStatus = AppEvent["status"];
export type EventAttempt = AppEvent["attempts"][number];
export type KeptRequest = Schemas["KeptRequest"];
export type KeptRequestPage = Schemas["KeptRequestPage"];
/** The request log's filters; the page chooses the size of a page and follows the cursor itself. */
export type RequestFilter = Omit<Query<"listAppRequests">, "limit" | "cursor">;
export type StatusClass = NonNullable<RequestFilter["status"]>;
export type Verification = Schemas["Verification"];
export type LookupPage = Schemas["LookupPage"];
export type LookupMatch = LookupPage["data"][number];
export type VerificationPage = Schemas["VerificationPage"];
/** What the page searches by; the page chooses the size of a page and follows the cursor itself. */
export type Search = Omit<Query<"searchVerifications">, "limit" | "cursor">;
export type Status = Verification["status"];
export type UsageRow = Schemas["UsageRow"];
export type UsagePage = Schemas["UsagePage"];
export type MemberPage = Schemas["MemberPage"];
export type Invited = Schemas["Invited"];
export type Member = Schemas["Member"];

/** The final outcomes a usage row counts, in the order the chart stacks them. */
export const OUTCOMES = [
  "verified",
  "rejected",
  "inconclusive",
  "failed",
  "expired",
] as const satisfies readonly (keyof UsageRow)[];
export type Outcome = (typeof OUTCOMES)[number];
