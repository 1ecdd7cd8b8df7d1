/**
 * zod for everything the functions bundle: its functional API (`zod/mini`), which a bundle
 * keeps only the parts of it uses, with the English messages the classic API loads itself.
 * Without them every issue's message would read "Invalid input". Import zod from here.
 */
import { en } from "zod/locales";
import * as z from "zod/mini";

// As classic zod does: the default locale, unless one was configured already.
if (!z.config().localeError) z.config(en());

export * from "zod/mini";
