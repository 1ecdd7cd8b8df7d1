import { describe, expect, it } from "vitest";
import { inParallel } from "#shared/domain/in-parallel";

describe("inParallel", () => {
  it("runs every item, never more than the limit at once", async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await inParallel(
      Array.from({ length: 25 }, (_, i) => i),
      4,
      async (item) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, item % 3));
        running -= 1;
        done.push(item);
      },
    );
    expect(most).toBe(4);
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it("finishes the others when one fails, then throws the first failure", async () => {
    const done: number[] = [];
    const run = inParallel([1, 2, 3, 4, 5], 2, async (item) => {
      if (item === 2) throw new Error("two failed");
      done.push(item);
    });
    await expect(run).rejects.toThrow("two failed");
    expect(done.sort()).toEqual([1, 3, 4, 5]);
  });

  it("does nothing for no items", async () => {
    await expect(inParallel([], 3, async () => undefined)).resolves.toBeUndefined();
  });
});
