import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { KEEP_REQUESTS_DAYS, type RequestRecord } from "../domain/requests.ts";
import type { RequestLog } from "../ports/request-log.ts";

/** The partition key of a kept request (the prefix is the family IAM holds the writers to). */
export const requestPk = (requestId: string) => `REQ#${requestId}`;

const SORT_KEY = "REQUEST";

/** The usage table's request items: `pk = REQ#<request_id>`, `sk = REQUEST`, gone after `KEEP_REQUESTS_DAYS` (TTL). */
export class DynamoDbRequestLog implements RequestLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async record(request: RequestRecord): Promise<void> {
    const expires = Math.floor(Date.parse(request.at) / 1000) + KEEP_REQUESTS_DAYS * 86_400;
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { pk: requestPk(request.request_id), sk: SORT_KEY, ...request, expires_at_epoch: expires },
      }),
    );
  }

  async find(requestId: string): Promise<RequestRecord | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: { pk: requestPk(requestId), sk: SORT_KEY } }),
    );
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, expires_at_epoch: _expires, ...request } = Item;
    return request as RequestRecord;
  }
}
