/**
 * What the local runtime keeps beside its data (the queues, the stream's checkpoints, the usage
 * plan, the identity endpoint's users, the dev app): each file written whole through a rename,
 * so a runtime killed mid-write leaves the old file or the new one, never half of one, and the
 * next start reads it.
 */
import { renameSync, writeFileSync } from "node:fs";

export function writeDataFile(file: string, text: string, options: { secret?: boolean } = {}): void {
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, text, options.secret ? { mode: 0o600 } : {});
  renameSync(temporary, file);
}
