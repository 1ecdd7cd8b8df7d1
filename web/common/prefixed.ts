/** `words` with each key after `prefix`, as the dictionaries key their labels (`reason.`, `type.`, ...). */
export function prefixed<const Prefix extends string, const Words extends Record<string, string>>(
  prefix: Prefix,
  words: Words,
): { [Key in keyof Words & string as `${Prefix}${Key}`]: Words[Key] } {
  return Object.fromEntries(Object.entries(words).map(([key, value]) => [`${prefix}${key}`, value])) as {
    [Key in keyof Words & string as `${Prefix}${Key}`]: Words[Key];
  };
}
