/**
 * The usage plan's check after the authorizer: a request of an app whose own bucket is missing
 * (its registration lost) is refused as API Gateway refuses it, and reaches no function, until
 * a sync gives the app its bucket.
 */
import { describe, expect, it } from "vitest";
import { syncAppLimits } from "#shared/use-cases/accounts/apps";
import { Customer, expectProblem } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const fx = useApiFixture();
const UNKNOWN = "ver_01JD0000000000000000000000";

describe("an app without its own bucket", () => {
  it("is answered 503 with Retry-After, reaching no function, until a sync gives it one", async () => {
    const app = await fx.api.appWithoutLimits();
    const customer = new Customer(fx.api.baseUrl, app.api_key);
    const before = await fx.api.count(fx.api.tables.verifications);

    const refused = await customer.create({ document_type: "yok_student_certificate" }, "unregistered-1");
    expectProblem(refused, 503, "service_unavailable");
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(refused.headers.get("request-id")).toBeTruthy();
    expect(await fx.api.count(fx.api.tables.verifications)).toBe(before);

    const sync = await syncAppLimits({ apps: fx.api.apps, limits: fx.api.limits });
    expect(sync.registered).toEqual([app.app_id]);
    expect((await customer.get(UNKNOWN)).status).toBe(404);
  });
});
