import { powertoolsLog } from "../adapters/logger.ts";
import type { Log } from "../ports/log.ts";

/** Every function's log. */
export const log: Log = powertoolsLog;
