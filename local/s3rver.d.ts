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
