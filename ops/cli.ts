/** `npm run ops -- <command>`: see ops/program.ts and the README's operating section. */
import { runOps } from "./program.ts";

// The SDK warns about Node 20 on every client; the warning says nothing to an operator.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

runOps(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
