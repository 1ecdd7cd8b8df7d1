/** `npm run test-documents`: regenerates docs/test-documents/ from the catalogue. */
import path from "node:path";
import { writeTestDocuments } from "./publish.ts";

const target = path.resolve(__dirname, "../../docs/test-documents");

writeTestDocuments(target).then(
  (files) => {
    for (const file of files) {
      process.stdout.write(
        `${path.relative(process.cwd(), path.join(target, file.path))} (${file.bytes.length} bytes)\n`,
      );
    }
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
