/**
 * The order a page offers the values of one of its document's enums in. The values come from the
 * lists `npm run openapi` generates beside each page's `schema.ts` (`values.ts`); the page
 * declares each value's place beside its labels (`order.ts`), and the compiler holds both: a value
 * the document gains fails to compile until it has a place, and (with `LabelledIn`) a label.
 */

/** `values` in the order `places` gives them, first the lowest. */
export function inOrder<const Value extends string>(
  values: readonly Value[],
  places: { readonly [Place in NoInfer<Value>]: number },
): Value[] {
  return [...values].sort((a, b) => places[a] - places[b]);
}

/** The values a dictionary with keys `Key` labels in `Group` (its keys `<group>.<value>`). */
export type LabelledIn<Key extends string, Group extends string> = Key extends `${Group}.${infer Value}`
  ? Value
  : never;
