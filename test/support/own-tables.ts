/**
 * Tables of a test file's own on DynamoDB Local, for an adapter tested alone: every table made
 * under a fresh prefix before the file's tests, the client closed after them.
 */
import { randomUUID } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, inject } from "vitest";
import { documentClientOf } from "#shared/adapters/aws-clients";
import type { TableDefinition } from "#shared/declarations/tables";
import { LOCAL_REGION } from "../../local/engines.ts";
import { ensureTables, tableName } from "../../local/resources.ts";

export interface OwnTables {
  /** The physical name of `table` under this file's prefix. */
  name(table: TableDefinition): string;
  /** The document client the stores take; valid once the file's tests run. */
  doc(): DynamoDBDocumentClient;
}

export function ownTables(): OwnTables {
  const prefix = `t${randomUUID().slice(0, 8)}-`;
  let raw: DynamoDBClient | undefined;
  beforeAll(async () => {
    raw = new DynamoDBClient({
      endpoint: inject("engines").dynamoEndpoint,
      region: LOCAL_REGION,
      credentials: inject("engines").credentials,
    });
    await ensureTables(raw, prefix);
  });
  afterAll(() => raw?.destroy());
  return {
    name: (table) => tableName(prefix, table),
    doc() {
      if (!raw) throw new Error("The tables are made before the file's tests run");
      return documentClientOf(raw);
    },
  };
}
