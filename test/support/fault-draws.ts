/** How the fault injectors choose: one seeded draw per request among the kinds, each at its rate. */
import { seededRandom } from "../../scripts/seeded-random.ts";

/** One draw among `kinds`, each with its rate, from `random`; none for the rest of the range. */
export function drawFault<K extends string>(
  random: () => number,
  kinds: readonly K[],
  rates: Readonly<Record<K, number>>,
): K | undefined {
  let roll = random();
  for (const kind of kinds) {
    if (roll < rates[kind]) return kind;
    roll -= rates[kind];
  }
  return undefined;
}

/**
 * Draws from `seed`: the first ones are `kinds` in order, one each, so every kind happens in
 * every run however small, then each kind at its rate.
 */
export function seededFaults<K extends string>(
  seed: number,
  kinds: readonly K[],
  rates: Readonly<Record<K, number>>,
): () => K | undefined {
  const random = seededRandom(seed);
  let drawn = 0;
  return () => {
    drawn += 1;
    return kinds[drawn - 1] ?? drawFault(random, kinds, rates);
  };
}
