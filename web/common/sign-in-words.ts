/**
 * The words the sign-in (sign-in.ts) says, by key: every page that signs in has these keys in each
 * of its dictionaries and hands its translator in. No DOM here, so the pages' dictionary tests
 * read the list.
 */

/** Every key of the sign-in's words. */
export const SIGN_IN_KEYS = [
  "sign_in.title",
  "sign_in.purpose",
  "sign_in.username",
  "sign_in.password",
  "sign_in.submit",
  "sign_in.new_password.title",
  "sign_in.new_password.intro",
  "sign_in.new_password.field",
  "sign_in.new_password.repeat",
  "sign_in.new_password.submit",
  "sign_in.code.title",
  "sign_in.code.intro",
  "sign_in.code.field",
  "sign_in.code.hint",
  "sign_in.code.submit",
  "sign_in.setup.title",
  "sign_in.setup.intro",
  "sign_in.setup.link",
  "sign_in.setup.then",
  "sign_in.setup.submit",
  "sign_in.refused.failed",
  "sign_in.refused.other",
  "sign_in.refused.credentials",
  "sign_in.refused.disabled",
  "sign_in.refused.temporary_expired",
  "sign_in.refused.too_many",
  "sign_in.refused.wrong_code",
  "sign_in.refused.used_code",
  "sign_in.refused.reset_required",
  "sign_in.refused.not_confirmed",
  "sign_in.refused.password_policy",
  "sign_in.refused.passwords_differ",
  "sign_in.refused.unreachable",
  "sign_in.refused.expired",
  "sign_in.refused.unsupported",
] as const;
export type SignInKey = (typeof SIGN_IN_KEYS)[number];

/** The page's words for the sign-in: its translator does. */
export interface SignInWords {
  t(key: SignInKey, values?: Record<string, string | number>): string;
}
