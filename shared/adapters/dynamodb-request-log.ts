import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { ulid } from "ulid";
import { USAGE_TABLE } from "../declarations/tables.ts";
import { KEEP_REQUESTS_DAYS, type RequestRecord } from "../domain/requests.ts";
import type { RequestLog } from "../ports/request-log.ts";
import type { RecordPut, RequestLinker } from "./dynamodb-writes.ts";

const { requestsByApp } = USAGE_TABLE.indexes;
/** The attributes of the `requests_by_app` index: the app, and where the request sorts among its requests. */
export const APP = requestsByApp.partitionKey.name;
export const ORDER = requestsByApp.sortKey.name;

/** The partition key of a kept request (the prefix is the family IAM holds the writers to). */
export const requestPk = (requestId: string) => `REQ#${requestId}`;

export const SORT_KEY = "REQUEST";

/**
 * Where a request sorts among its app's: by the second it was answered, then by when it was
 * written (a ULID: the millisecond, so several a second list in order), then its id.
 */
const orderOf = (request: RequestRecord) => `${request.at}#${ulid()}#${request.request_id}`;

/** The stored item as the request it records: without the keys, the index's attributes and the expiry. */
export function fromStored(item: Record<string, unknown>): RequestRecord {
  const { pk: _pk, sk: _sk, [APP]: _app, [ORDER]: _order, expires_at_epoch: _expires, ...request } = item;
  return request as unknown as RequestRecord;
}

/**
 * The usage table's request items: `pk = REQ#<request_id>`, `sk = REQUEST`, gone after
 * `KEEP_REQUESTS_DAYS` (TTL); each also under its app in the `requests_by_app` index, by time,
 * which `DynamoDbRequestHistory` reads.
 */
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
      Item: {
        pk: requestPk(request.request_id),
        sk: SORT_KEY,
        ...request,
        [APP]: request.app_id,
        [ORDER]: orderOf(request),
        expires_at_epoch: expires,
      },
    };
  }

  async find(requestId: string): Promise<RequestRecord | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: { pk: requestPk(requestId), sk: SORT_KEY } }),
    );
    return Item && fromStored(Item);
  }
}
