/**
 * `ops issuer probe`: one lookup of e-Devlet from the operator's machine, step by step, to see
 * what e-Devlet answers now (a changed page, a refusal) without a customer's document. It prints
 * each request's status, content type and size, the token and the link found on each page, and
 * the classification the service would make; never the identity number, never the document.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { InvalidArgumentError, Option } from "commander";
import { BARCODE_PATTERN, isIdentityNumber } from "#shared/domain/certificates/keys";
import { CANARY_LOOKUP, EDEVLET_DEFAULT_MOBILE_URL, EDEVLET_DEFAULT_URL } from "#shared/domain/edevlet";
import { EDEVLET_PROTOCOLS, type EdevletProtocol } from "#shared/domain/issuer";
import type { IssuerAnswer, ProbeStep } from "#shared/ports/authority";
import { recordLookup } from "#shared/use-cases/issuer/cassette";
import { edevletProbe } from "#shared/wiring/authority";
import { type AloneCommand, type Given, type GroupDefinition, option, requiredOption } from "../definitions.ts";
import { EXIT } from "../failures.ts";
import { localEdevlet, type TargetOptions, TargetUnavailableError } from "../target.ts";

function barcode(value: string): string {
  const upper = value.trim().toUpperCase();
  if (!BARCODE_PATTERN.test(upper)) throw new InvalidArgumentError("expected a barcode: letters, digits and hyphens");
  return upper;
}

function identityNumber(value: string): string {
  if (!isIdentityNumber(value.trim())) throw new InvalidArgumentError("expected a T.C. identity number (11 digits)");
  return value.trim();
}

/** A step as the probe shows it: without the exchange a cassette keeps. */
type ShownStep = Exclude<ProbeStep, { kind: "request" }> | Omit<Extract<ProbeStep, { kind: "request" }>, "exchange">;

/** The classification as the service counts it (`IssuerLookups` by `Outcome`). */
const classification = (answer: IssuerAnswer) =>
  answer.kind === "unavailable" ? `unavailable_${answer.cause}` : answer.kind;

/** One step as a line, or two for a page's token and link. */
function line(step: ShownStep): string {
  if (step.kind === "request") {
    const size = `${step.bytes} B`;
    return `  ${step.method.padEnd(4)} ${step.path}  ${step.status}  ${step.contentType || "-"}  ${size}`;
  }
  const found = [
    `token ${step.token ?? "none"}`,
    `link ${step.link ?? "none"}`,
    ...(step.messages.length > 0
      ? [`message ${step.messages.map((message) => JSON.stringify(message)).join(", ")}`]
      : []),
  ];
  return `       ${found.join("  ")}`;
}

/** e-Devlet's base URL for a command: `--url`, else e-Devlet's own for production, else the local runtime's. */
function issuerUrlFor(
  options: { protocol: EdevletProtocol; url?: string },
  target: TargetOptions,
  env: NodeJS.ProcessEnv,
): string {
  const mobile = options.protocol === "mobile";
  if (options.url !== undefined) return options.url;
  if (target.env === "production") return mobile ? EDEVLET_DEFAULT_MOBILE_URL : EDEVLET_DEFAULT_URL;
  if (target.env) {
    throw new TargetUnavailableError(`Name ${target.env}'s e-Devlet with --url (the stack output EdevletSimulatorUrl)`);
  }
  const local = localEdevlet(target, env);
  return mobile ? local.mobile_url : local.url;
}

interface ProbeOptions {
  barcode?: string;
  identityNumber?: string;
  protocol: EdevletProtocol;
  url?: string;
}

/** What the probe answers: the steps it shows (never the exchanges themselves), the classification, and the verdict. */
function probeReport(
  options: ProbeOptions,
  url: string,
  lookup: { barcode: string },
  steps: ProbeStep[],
  answer: IssuerAnswer,
) {
  // What the probe shows: never the exchanges themselves (bodies, form fields).
  const shown = steps.map((step) => {
    if (step.kind !== "request") return step;
    const { exchange: _kept, ...rest } = step;
    return rest;
  });
  const outcome = classification(answer);
  const canary = options.barcode === undefined;
  // The canary's barcode must meet the documented negative; any barcode must get an answer.
  const failed = canary ? answer.kind !== "not_found" : answer.kind === "unavailable";
  const verdict = canary
    ? failed
      ? "not the documented negative: e-Devlet may have changed (see the runbook)"
      : "the documented negative, as expected"
    : answer.kind === "found"
      ? `a PDF of ${answer.document.byteLength} bytes`
      : "";
  return {
    json: {
      protocol: options.protocol,
      url,
      barcode: lookup.barcode,
      canary,
      steps: shown,
      classification: outcome,
      ...(answer.kind === "found" && { document_bytes: answer.document.byteLength }),
    },
    text: [
      `e-Devlet (${options.protocol}) at ${url}, barcode ${lookup.barcode}${canary ? " (the canary's)" : ""}:`,
      ...shown.map(line),
      `classification: ${outcome}${verdict ? ` (${verdict})` : ""}`,
    ].join("\n"),
    ...(failed && { exit: EXIT.failed }),
  };
}

const protocolOption = () =>
  new Option("--protocol <protocol>", "e-Devlet's way in").choices(EDEVLET_PROTOCOLS).default("form");

const probe: AloneCommand = {
  name: "probe",
  description:
    "one lookup from this machine, step by step (status, content type, size, token, link, classification); by default of a barcode e-Devlet cannot know, which must answer its documented negative",
  options: [
    option("--barcode <barcode>", "the barcode to look up (with --identity-number); the canary's by default", barcode),
    option("--identity-number <number>", "the holder's T.C. number (with --barcode); never printed", identityNumber),
    protocolOption(),
    option(
      "--url <url>",
      "e-Devlet's base URL (default: what the local runtime asks; e-Devlet's own with --env production)",
    ),
  ],
  reaches: "nothing",
  run: async ({ options, command }: Given<[], ProbeOptions>, target, env) => {
    if ((options.barcode === undefined) !== (options.identityNumber === undefined)) {
      command.error("--barcode and --identity-number go together", { exitCode: EXIT.usage });
    }
    const url = issuerUrlFor(options, target, env);
    const lookup = {
      documentType: "YOK_STUDENT" as const,
      barcode: options.barcode ?? CANARY_LOOKUP.barcode,
      identityNumber: options.identityNumber ?? CANARY_LOOKUP.identityNumber,
    };
    const steps: ProbeStep[] = [];
    const answer = await edevletProbe(options.protocol, url, (step) => steps.push(step)).lookup(lookup);
    return probeReport(options, url, lookup, steps, answer);
  },
};

const record: AloneCommand = {
  name: "record",
  description:
    "one lookup saved as a cassette (DIR/cassette.json: each exchange's status, headers and body, the identity number and cookies' values redacted, a PDF as its SHA-256 and size) to replay in tests",
  options: [
    requiredOption("--barcode <barcode>", "the barcode to look up", barcode),
    requiredOption(
      "--identity-number <number>",
      "the holder's T.C. number; redacted from the cassette",
      identityNumber,
    ),
    requiredOption("--out <dir>", "the cassette's folder, e.g. test/fixtures/edevlet/<name>"),
    protocolOption(),
    option("--url <url>", "e-Devlet's base URL (as for probe)"),
  ],
  reaches: "nothing",
  run: async (
    {
      options,
    }: Given<[], { barcode: string; identityNumber: string; out: string; protocol: EdevletProtocol; url?: string }>,
    target,
    env,
  ) => {
    const url = issuerUrlFor(options, target, env);
    const cassette = await recordLookup(
      (observe) => edevletProbe(options.protocol, url, observe),
      options.protocol,
      options,
    );
    mkdirSync(options.out, { recursive: true });
    const file = path.join(options.out, "cassette.json");
    writeFileSync(file, `${JSON.stringify(cassette, null, 2)}\n`);
    return {
      json: { file, classification: cassette.classification, exchanges: cassette.exchanges.length },
      text: `Recorded ${cassette.exchanges.length} exchange(s), classified ${cassette.classification}, in ${file}.`,
    };
  },
};

export const ISSUER: GroupDefinition = {
  name: "issuer",
  description: "the issuer the service asks (e-Devlet)",
  commands: [probe, record],
};
