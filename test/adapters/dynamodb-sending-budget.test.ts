/**
 * An app's sends by hand on DynamoDB Local: at most `SENDING_LIMITS` of each kind in a window
 * that starts with its first send, also when they come at once; beyond, the seconds until the
 * window ends; each app and each kind counted apart.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DynamoDbSendingBudget } from "#shared/adapters/dynamodb-sending-budget";
import { EVENTS_TABLE } from "#shared/declarations/tables";
import { SENDING_LIMITS } from "#shared/domain/tenant-limits";
import { appId } from "../support/fakes.ts";
import { ownTables } from "../support/own-tables.ts";

const tables = ownTables();
let budget: DynamoDbSendingBudget;

beforeAll(() => {
  budget = new DynamoDbSendingBudget(tables.doc(), tables.name(EVENTS_TABLE));
});

const T0 = new Date("2026-11-29T10:00:00Z");
const secondsIn = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe("an app's sends by hand", () => {
  const { most, perSeconds } = SENDING_LIMITS.manual;

  it(`takes ${most} in a window, also at once, then answers how long until it ends`, async () => {
    const app = appId(31);
    const taken = await Promise.all(Array.from({ length: most + 5 }, () => budget.take(app, "manual", secondsIn(1))));
    expect(taken.filter((answer) => answer.taken)).toHaveLength(most);
    expect(await budget.take(app, "manual", secondsIn(600))).toEqual({
      taken: false,
      retryAfterSeconds: perSeconds - 599,
    });
    // The window ends an hour after its first send: a new one starts.
    expect(await budget.take(app, "manual", secondsIn(1 + perSeconds))).toEqual({ taken: true });
  });

  it("counts each app and each kind apart", async () => {
    const [first, second] = [appId(32), appId(33)];
    expect(await budget.take(first, "test", T0)).toEqual({ taken: true });
    expect(await budget.take(first, "test", secondsIn(3))).toEqual({
      taken: false,
      retryAfterSeconds: SENDING_LIMITS.test.perSeconds - 3,
    });
    expect(await budget.take(second, "test", secondsIn(3))).toEqual({ taken: true });
    expect(await budget.take(first, "manual", secondsIn(3))).toEqual({ taken: true });
    expect(await budget.take(first, "test", secondsIn(SENDING_LIMITS.test.perSeconds))).toEqual({ taken: true });
  });
});
