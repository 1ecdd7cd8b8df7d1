import type { TestProject } from "vitest/node";
import { freePort, type LocalCredentials, newLocalCredentials, startDynamoDb, startS3 } from "../../local/engines.ts";
import { localSettings } from "../../local/resources.ts";

export interface Engines {
  dynamoEndpoint: string;
  s3Endpoint: string;
  /** The access key the S3 engine takes, new for each run (`npm start` keeps one per data directory). */
  credentials: LocalCredentials;
}

declare module "vitest" {
  export interface ProvidedContext {
    engines: Engines;
  }
}

/** Starts the real engines once for the whole run, in memory. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dynamoEndpoint = `http://127.0.0.1:${await freePort()}`;
  const s3Port = await freePort();
  const s3Endpoint = `http://127.0.0.1:${s3Port}`;
  const credentials = newLocalCredentials();
  // The signature check signs as the functions do, so it needs their settings too.
  Object.assign(
    process.env,
    localSettings({
      environment: "sandbox",
      tablePrefix: "setup-",
      dynamoEndpoint,
      s3Endpoint,
      credentials,
      secretsKey: Buffer.alloc(32).toString("base64"),
      issuer: {
        settings: { ISSUER: "none" },
        simulator: { documents: [], key: "global-setup-unused-global-setup-unused" },
      },
    }),
  );
  const dynamo = await startDynamoDb({ port: Number(new URL(dynamoEndpoint).port) });
  // Each test file's review console listens on a loopback port of its own: all of them may read documents.
  const s3 = await startS3({ port: s3Port, credentials, readableFrom: ["http://127.0.0.1:*"] });
  project.provide("engines", { dynamoEndpoint, s3Endpoint, credentials });
  return async () => {
    await s3.stop();
    await dynamo.stop();
  };
}
