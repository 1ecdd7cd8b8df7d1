import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { documentClientOf } from "../../adapters/aws-clients.ts";
import { DynamoDbEventStore } from "../../adapters/dynamodb-event-store.ts";
import { DynamoDbSendingBudget } from "../../adapters/dynamodb-sending-budget.ts";
import type { AuditLinker } from "../../adapters/dynamodb-writes.ts";
import type { EventStore } from "../../ports/event-store.ts";
import type { SendingBudget } from "../../ports/sending-budget.ts";
import { dynamoClients } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/** The webhook events and their attempts in the events table `table`, reached through `dynamo`. */
export const eventsIn = (dynamo: DynamoDBClient, table: string, audit?: AuditLinker): EventStore =>
  new DynamoDbEventStore(documentClientOf(dynamo), table, audit);

/** The function's events table (`EVENTS_TABLE`). */
export const eventStore = (config: FunctionConfig, audit?: AuditLinker): EventStore =>
  eventsIn(dynamoClients().raw, config.setting("EVENTS_TABLE"), audit);

/** The sends by hand each app has made in its window, in the function's events table. */
export const sendingBudget = (config: FunctionConfig): SendingBudget =>
  new DynamoDbSendingBudget(documentClientOf(dynamoClients().raw), config.setting("EVENTS_TABLE"));
