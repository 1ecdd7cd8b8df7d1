import { Logger } from "@aws-lambda-powertools/logger";

/** One structured logger. Never log a key, a secret or document content. */
export const logger = new Logger({ serviceName: "verification-api" });
