declare module "s3rver" {
  import type { AddressInfo } from "node:net";

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    vhostBuckets?: boolean;
    /** Each bucket made at start, with its configurations as S3's XML documents (`CORSConfiguration`, ...). */
    configureBuckets?: { name: string; configs?: string[] }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    /** The server `run` started. */
    httpServer: import("node:http").Server;
    close(): Promise<void>;
  }
}

/** s3rver's one account, whose access keys its own signature check takes (`S3RVER` alone, built in). */
declare module "s3rver/lib/models/account.js" {
  interface AWSAccount {
    accessKeys: Map<string, string>;
    createKeyPair(accessKeyId: string, secretAccessKey: string): void;
    revokeAccessKey(accessKeyId: string): void;
  }
  const accounts: { DUMMY_ACCOUNT: AWSAccount };
  export default accounts;
}
