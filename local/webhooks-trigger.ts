/**
 * `npm run webhooks:trigger -- <event type>`: makes the sandbox send a real, signed event of
 * that type to the app's webhook destination, the pair of `webhooks:listen`. It drives a real
 * verification through the public API with the TypeScript client: the sandbox's reference
 * prefixes decide the outcome, and the pipeline itself records, signs and delivers the events,
 * exactly as it will for your own verifications.
 *
 * The local runtime's dev app by default (`.local/dev-app.json`); a deployed sandbox with
 * VERIFICATION_API_URL and VERIFICATION_API_KEY. Production keys are refused: production
 * ignores the prefixes and would make a real verification.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { createClient, type Verification, type VerificationClient } from "../clients/typescript/src/index.ts";
import { devAppPath, readDevApp } from "./dev-app.ts";

/** What each event type takes: the reference prefix that decides the outcome, and whether the verification is then erased. */
const RECIPES = {
  "verification.processing": { prefix: "test_verified_", erase: false },
  "verification.completed": { prefix: "test_verified_", erase: false },
  "verification.failed": { prefix: "test_failed_", erase: false },
  "verification.in_review": { prefix: "test_review_verified_", erase: false },
  "verification.redacted": { prefix: "test_verified_", erase: true },
} as const;
type Triggerable = keyof typeof RECIPES;

/** The completed results a prefix can force. */
const RESULT_PREFIXES = {
  verified: "test_verified_",
  rejected: "test_rejected_",
  inconclusive: "test_inconclusive_",
} as const;

/** Types the sandbox cannot make on request, and where they come from instead. */
const NOT_TRIGGERABLE: Record<string, string> = {
  "verification.expired": "it is sent 24 h after a create without a confirmed upload; the sandbox cannot hasten it",
  "webhook.test": "send it from the portal (an app's Webhooks page, Send test event)",
};

const TERMINAL = new Set(["completed", "failed", "expired"]);

/** A one-page PDF: readable, so the reference's prefix decides the outcome. */
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n2 0 obj <</Type/Pages/Kids[3 0 R]/Count 1>> endobj\n3 0 obj <</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n",
  "latin1",
);

function credentials(): { baseUrl: string; apiKey: string } {
  const { VERIFICATION_API_URL, VERIFICATION_API_KEY, LOCAL_DATA_DIR } = process.env;
  if (VERIFICATION_API_URL && VERIFICATION_API_KEY)
    return { baseUrl: VERIFICATION_API_URL, apiKey: VERIFICATION_API_KEY };
  const file = devAppPath(path.resolve(LOCAL_DATA_DIR ?? ".local"));
  const devApp = readDevApp(file);
  if (!devApp) {
    throw new Error(
      `No dev app in ${file}: start the local runtime (npm start), or set VERIFICATION_API_URL and VERIFICATION_API_KEY`,
    );
  }
  return { baseUrl: devApp.base_url, apiKey: devApp.api_key };
}

async function settled(
  client: VerificationClient,
  id: string,
  done: (v: Verification) => boolean,
): Promise<Verification> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const verification = await client.getVerification(id);
    if (done(verification)) return verification;
    if (Date.now() > deadline) throw new Error(`${id} is still ${verification.status} after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { result: { type: "string" } },
  });
  const type = positionals[0] ?? "";
  if (type in NOT_TRIGGERABLE) throw new Error(`${type} cannot be triggered: ${NOT_TRIGGERABLE[type]}`);
  if (!(type in RECIPES)) {
    throw new Error(
      `Name an event type: ${Object.keys(RECIPES).join(", ")} (verification.completed takes --result verified|rejected|inconclusive)`,
    );
  }
  const recipe = RECIPES[type as Triggerable];
  const result = values.result ?? "verified";
  if (!(result in RESULT_PREFIXES) || (values.result !== undefined && type !== "verification.completed")) {
    throw new Error("--result is verified, rejected or inconclusive, and only for verification.completed");
  }
  const prefix =
    type === "verification.completed" ? RESULT_PREFIXES[result as keyof typeof RESULT_PREFIXES] : recipe.prefix;

  const { baseUrl, apiKey } = credentials();
  if (!apiKey.startsWith("vk_sandbox_"))
    throw new Error("Only a sandbox key can trigger events: production would make a real verification");
  const client = createClient({ baseUrl, apiKey });
  const reference = `${prefix}trigger-${Date.now()}`;
  const { verification } = await client.createVerification({
    document_type: "YOK_STUDENT",
    external_reference_id: reference,
    original_filename: "trigger.pdf",
    file_size_bytes: PDF.length,
  });
  await client.upload(verification, new Uint8Array(PDF));
  await client.confirmUpload(verification.verification_id);
  const id = verification.verification_id;
  process.stdout.write(`${id} (${reference}) confirmed: verification.processing is on its way\n`);
  const ended = await settled(client, id, (v) => TERMINAL.has(v.status));
  process.stdout.write(
    `${id} is ${ended.status}${ended.result ? ` (${ended.result})` : ""}: its events are on their way\n`,
  );
  if (recipe.erase) {
    await client.eraseVerification(id);
    process.stdout.write(`${id} erased: verification.redacted is on its way\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`webhooks:trigger: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
