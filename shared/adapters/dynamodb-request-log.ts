import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { KEEP_REQUESTS_DAYS, type RequestRecord } from "../domain/requests.ts";
import type { RequestLog } from "../ports/request-log.ts";
import type { RecordPut, RequestLinker } from "./dynamodb-writes.ts";

/** The partition key of a kept request (the prefix is the family IAM holds the writers to). */
export const requestPk = (requestId: string) => `REQ#${requestId}`;

const SORT_KEY = "REQUEST";

/** The usage table's request items: `pk = REQ#<request_id>`, `sk = REQUEST`, gone after `KEEP_REQUESTS_DAYS` (TTL). */
export class DynamoDbRequestLog implements RequestLog, RequestLinker {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async record(request: RequestRecord): Promise<void> {
    await this.db.send(new PutCommand(this.requestPut(request)));
  }

  /** The request's item, for a change that writes it in its own transaction; it replaces one kept before under the same id. */
  requestPut(request: RequestRecord): RecordPut {
    const expires = Math.floor(Date.parse(request.at) / 1000) + KEEP_REQUESTS_DAYS * 86_400;
    return {
      TableName: this.table,
      Item: { pk: requestPk(request.request_id), sk: SORT_KEY, ...request, expires_at_epoch: expires },
    };
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
