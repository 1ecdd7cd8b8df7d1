import { describe, expect, it } from "vitest";
import { NotFoundError, RefusedError, StaleAppError } from "#shared/domain/errors";
import { requireApp } from "#shared/use-cases/accounts/require-app";
import { retryWhenStale } from "#shared/use-cases/accounts/retry-when-stale";
import { anApp, appId, InMemoryAppStore } from "../../support/fakes.ts";

/** A step that throws each of `failures` in turn, then returns "done"; it counts its runs. */
function stepFailing(...failures: Error[]) {
  const step = async () => {
    step.runs += 1;
    const failure = failures[step.runs - 1];
    if (failure) throw failure;
    return "done";
  };
  step.runs = 0;
  return step;
}

describe("retryWhenStale", () => {
  it("returns the step's result when it first succeeds, running it once", async () => {
    const step = stepFailing();

    expect(await retryWhenStale(step)).toBe("done");
    expect(step.runs).toBe(1);
  });

  it("runs the step again after a StaleAppError, up to the third run", async () => {
    const step = stepFailing(new StaleAppError(), new StaleAppError());

    expect(await retryWhenStale(step)).toBe("done");
    expect(step.runs).toBe(3);
  });

  it("gives concurrent_change after three stale runs, without a fourth", async () => {
    const step = stepFailing(new StaleAppError(), new StaleAppError(), new StaleAppError());

    const error = await retryWhenStale(step).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RefusedError);
    expect(error).toMatchObject({ code: "concurrent_change" });
    expect(step.runs).toBe(3);
  });

  it("passes any other error on at once", async () => {
    const boom = new Error("the table is down");
    const step = stepFailing(boom);

    await expect(retryWhenStale(step)).rejects.toBe(boom);
    expect(step.runs).toBe(1);
  });
});

describe("requireApp", () => {
  it("returns the stored app", async () => {
    const apps = new InMemoryAppStore().put(anApp({ name: "Stored" }));

    expect(await requireApp(apps, appId(1))).toMatchObject({ app_id: appId(1), name: "Stored" });
  });

  it("refuses an unknown app with app_not_found", async () => {
    const error = await requireApp(new InMemoryAppStore(), appId(9)).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: "app_not_found", message: `No app ${appId(9)} in this environment` });
  });
});
