import type { Environment } from "../domain/environments.ts";
import type { PortalRole } from "../domain/organizations.ts";
import type { StaffGroup } from "../domain/staff.ts";
import type { KeyFamily } from "./key-families.ts";
import type { SettingName } from "./settings.ts";
import type {
  APPS_TABLE,
  AUDIT_DIGESTS_TABLE,
  AUDIT_TABLE,
  EVENTS_TABLE,
  IDEMPOTENCY_TABLE,
  USAGE_TABLE,
  VERIFICATIONS_TABLE,
} from "./tables.ts";

/**
 * What a function's declaration (`functions/<name>.ts`, one file a function) says: its entry
 * file, settings, timeout and access, and what calls it (its routes, the authorizer it is, or
 * its trigger). The CDK stack deploys exactly these with exactly these grants, the local runtime
 * loads exactly these entry files, and a function's bundle carries its own declaration only.
 */

export type TableSetting =
  | "APPS_TABLE"
  | "VERIFICATIONS_TABLE"
  | "IDEMPOTENCY_TABLE"
  | "EVENTS_TABLE"
  | "AUDIT_TABLE"
  | "AUDIT_DIGESTS_TABLE"
  | "USAGE_TABLE";

/** Each table's indexes, by the names code looks them up with (`tables.ts`). */
interface IndexName {
  APPS_TABLE: keyof typeof APPS_TABLE.indexes;
  VERIFICATIONS_TABLE: keyof typeof VERIFICATIONS_TABLE.indexes;
  IDEMPOTENCY_TABLE: keyof typeof IDEMPOTENCY_TABLE.indexes;
  EVENTS_TABLE: keyof typeof EVENTS_TABLE.indexes;
  AUDIT_TABLE: keyof typeof AUDIT_TABLE.indexes;
  AUDIT_DIGESTS_TABLE: keyof typeof AUDIT_DIGESTS_TABLE.indexes;
  USAGE_TABLE: keyof typeof USAGE_TABLE.indexes;
}

export interface FunctionDefinition {
  /** Entry file, relative to the project root. */
  entry: string;
  /** The settings the function reads at cold start; the stack sets exactly these. */
  settings: readonly SettingName[];
  /** Seconds before the function is stopped. */
  timeoutSeconds: number;
  /**
   * Everything the function may do, for least-privilege grants: DynamoDB actions per table
   * (index queries included under their table) and S3 actions on the uploads bucket's objects.
   */
  access: {
    tables: Partial<Record<TableSetting, readonly `dynamodb:${string}`[]>> & {
      /**
       * What a function that records people's actions may do in the audit table: add a record (a
       * put, never an update or delete); the trail's reader and its sealer also query it.
       */
      AUDIT_TABLE?: readonly ("dynamodb:PutItem" | "dynamodb:Query")[];
    };
    /**
     * Where the function may touch a table only items whose partition key starts with one of
     * these (`dynamodb:LeadingKeys`), so a compromised function reads nothing else.
     */
    leadingKeys?: Partial<Record<TableSetting, readonly KeyFamily[]>>;
    /**
     * The indexes the function queries, where it names them: its `Query` reaches those and
     * nothing else (not the table, not its other indexes). Without it, every index of the table.
     */
    queries?: { readonly [S in TableSetting]?: readonly IndexName[S][] };
    /**
     * Where the function's `UpdateItem` on a table may set only these attributes (IAM's
     * `dynamodb:Attributes`, with the partition key), answering nothing back.
     */
    updatedAttributes?: Partial<Record<TableSetting, readonly string[]>>;
    uploads: readonly `s3:${string}`[];
    /** Asks this user pool about a token's user (`GetUser` needs no IAM grant: the token is the credential). */
    userPool?: "staff" | "portal";
    /** What it does to users of the customer pool: an owner inviting, removing or disabling their people. */
    portalUserAdmin?: readonly `cognito-idp:Admin${string}`[];
    /** Reads the retired Secrets Manager key material (`SECRETS_KEY_ARN`), to open values sealed before KMS. */
    secretsKey?: boolean;
    /**
     * The KMS sealing key (`SEALING_KEY_ID`): `encrypt` seals new secrets and cannot open any;
     * `decrypt` opens them, for signing deliveries. Always with an app id as encryption context.
     */
    sealing?: "encrypt" | "decrypt";
    /**
     * The identity key (`IDENTITY_KEY_ID`), which seals the identity number sent with a
     * verification by its keys: `seal` on create, `open` for the lookup. Always with the app and
     * the verification as encryption context.
     */
    identitySealing?: "seal" | "open";
    /** Digests expected identity numbers with the KMS HMAC key (`SUBJECT_KEY_ID`). */
    subjectDigest?: true;
    /** Signs the audit trail's digests with the KMS sealing key (`AUDIT_SEALING_KEY_ID`): one function, the sealer. */
    auditSealing?: true;
    /** Gives new apps their own request bucket: a key in the stage's usage plan (`USAGE_PLAN_ID`). */
    appLimits?: "register";
    /** The delivery queue: `send` new events to it (`DELIVERY_QUEUE_URL`), or `receive` them as its reader. */
    deliveryQueue?: "send" | "receive";
    /**
     * The issuer: `ask` reads the issuer queue, runs the checks and asks (e-Devlet, or the
     * issuer-lookup contract's integration and its bearer secret), sending its own retries back to
     * the queue; `schedule` only sends a verification's checks or first lookup to the queue.
     */
    issuer?: "ask" | "schedule";
    /** The e-Devlet simulator: its bundle carries the published test certificates. */
    simulator?: true;
  };
  /** The environments whose stacks deploy it; all when absent. */
  deployedIn?: readonly Environment[];
}

/** A route of an API that reaches the function declaring it. */
export interface RouteDeclaration {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path template; `{name}` is a path parameter, as API Gateway writes it. */
  path: string;
  /**
   * Who may call it on a TOKEN authorizer's API, any one sufficing: staff groups on the
   * backoffice, roles (with the weaker roles each one holds) on the portal.
   */
  groups?: readonly StaffGroup[] | readonly PortalRole[];
  /** `none`: the gateway calls the function with no authorizer (a web page's own files). */
  authorization?: "none";
}

/** An API's authorizer: how the gateway asks it, and how long it keeps an answer. */
export interface AuthorizerDeclaration {
  type: "REQUEST" | "TOKEN";
  /** Where the credential is: a REQUEST authorizer's header, or the token's. */
  identityHeader: string;
  cacheTtlSeconds: number;
}

/** What calls a function that is neither a route nor an authorizer. */
export type Trigger = "stream" | "queue" | "schedule" | "function-url";

export interface FunctionDeclaration extends FunctionDefinition {
  /** The function's name: its construct, its log group's, the handler the local runtime calls. */
  name: string;
  /** The routes that reach it, on the API whose list (`public-api.ts`, ...) holds it. */
  routes?: readonly RouteDeclaration[];
  /** The API authorizer it is. */
  authorizer?: AuthorizerDeclaration;
  trigger?: Trigger;
}

/** A route row of an API: the route and the function it reaches. */
export type RouteRow<D> = D extends { name: infer N; routes: readonly (infer R)[] } ? R & { function: N } : never;

/** The routes `declarations` declare, in their order, each with its function's name. */
export function routesOf<const D extends readonly FunctionDeclaration[]>(declarations: D): RouteRow<D[number]>[] {
  return declarations.flatMap((declaration) =>
    (declaration.routes ?? []).map((route) => ({ ...route, function: declaration.name })),
  ) as unknown as RouteRow<D[number]>[];
}

/** An authorizer's row: the gateway's view of it, with its function's name. */
export function authorizerOf<const D extends FunctionDeclaration & { authorizer: AuthorizerDeclaration }>(
  declaration: D,
): D["authorizer"] & { function: D["name"] } {
  return { function: declaration.name, ...declaration.authorizer };
}
