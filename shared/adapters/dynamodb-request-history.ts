import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { USAGE_TABLE } from "../declarations/tables.ts";
import { type RequestFilter, type RequestPosition, type RequestRecord, statusesOf } from "../domain/requests.ts";
import type { RequestHistory } from "../ports/request-log.ts";
import { queryPage } from "./dynamodb-pages.ts";
import { APP, fromStored, ORDER, requestPk, SORT_KEY } from "./dynamodb-request-log.ts";

const { requestsByApp } = USAGE_TABLE.indexes;

/** The request id a sort value ends with. */
const requestIdOf = (order: string) => order.slice(order.lastIndexOf("#") + 1);

/** An app's kept requests by time, from the usage table's `requests_by_app` index (`DynamoDbRequestLog` writes them). */
export class DynamoDbRequestHistory implements RequestHistory {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** The app's requests answered since `filter.since` (and until `filter.until`), newest first, after `before`. */
  async recentForApp(
    appId: string,
    filter: RequestFilter,
    limit: number,
    before?: RequestPosition,
  ): Promise<{ items: RequestRecord[]; last: RequestPosition | undefined }> {
    // The upper bound sorts after every request of its second: what tells them apart follows the "#".
    const until = `${filter.until ?? "9999"}#\uffff`;
    const statuses = filter.statusClass && statusesOf(filter.statusClass);
    const page = await queryPage<Record<string, unknown>>(this.db, limit, {
      TableName: this.table,
      IndexName: requestsByApp.indexName,
      KeyConditionExpression: "#app = :app AND #order BETWEEN :since AND :until",
      ExpressionAttributeNames: { "#app": APP, "#order": ORDER, ...(statuses ? { "#status": "status" } : {}) },
      ExpressionAttributeValues: {
        ":app": appId,
        ":since": filter.since,
        ":until": until,
        ...(statuses ? { ":from": statuses.from, ":to": statuses.to } : {}),
      },
      ...(statuses ? { FilterExpression: "#status BETWEEN :from AND :to" } : {}),
      ScanIndexForward: false,
      ...(before
        ? {
            ExclusiveStartKey: { pk: requestPk(requestIdOf(before)), sk: SORT_KEY, [APP]: appId, [ORDER]: before },
          }
        : {}),
    });
    const lastKey = page.lastKey?.[ORDER];
    return { items: page.items.map(fromStored), last: typeof lastKey === "string" ? lastKey : undefined };
  }
}
