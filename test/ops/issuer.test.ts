/**
 * The e-Devlet canary and `ops issuer probe` against the simulator, as they run against `npm start`'s:
 * the canary's barcode meets the documented negative, a held certificate is found, a changed
 * page fails the probe, every step is shown, and the identity number and the document never are.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { edevletFormAuthority } from "#shared/adapters/edevlet/form";
import { CANARY_LOOKUP, EDEVLET_FORM } from "#shared/domain/edevlet";
import type { Authority, ProbeStep } from "#shared/ports/authority";
import { runCanary } from "#shared/use-cases/issuer/canary";
import { type Cassette, REDACTED_NUMBER } from "#shared/use-cases/issuer/cassette";
import { type EdevletSimulator, type SimulatorHandler, startEdevletSimulator } from "../../local/edevlet.ts";
import { EXIT } from "../../ops/failures.ts";
import { syntheticIdentityNumber } from "../../scripts/test-documents/certificate.ts";
import { RecordingLog } from "../support/fakes.ts";
import { opsInProcess } from "./support.ts";

const PUBLISHED = path.resolve(__dirname, "../../docs/test-documents/issuer");
const ACTIVE = { barcode: "TESTYOK-0001-AKTIF", identityNumber: syntheticIdentityNumber(1) };
let folder = "";
let simulator: EdevletSimulator;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "ops-issuer-"));
  mkdirSync(path.join(folder, "markers"), { recursive: true });
  writeFileSync(path.join(folder, "markers", "SIMODD-0001.unrecognised"), "");
  // A runtime description naming the simulator, as npm start writes it.
  Object.assign(process.env, {
    SIMULATOR_DOCUMENTS: [PUBLISHED, folder].join(path.delimiter),
    SIMULATOR_KEY: "ops-issuer-test-key-of-32-chars-or-more!!",
  });
  const { handler } = (await import("../../functions/edevlet-simulator.ts")) as { handler: SimulatorHandler };
  simulator = await startEdevletSimulator(handler, 0);
  writeFileSync(
    path.join(folder, "runtime.json"),
    JSON.stringify({
      environment: "sandbox",
      base_url: "http://127.0.0.1:1",
      dynamodb_endpoint: "http://127.0.0.1:1",
      tables: { APPS_TABLE: "apps" },
      edevlet: { url: simulator.url, mobile_url: simulator.url },
    }),
  );
});
afterAll(async () => {
  await simulator?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const probe = (args: string[]) => opsInProcess(["issuer", "probe", ...args], folder);
interface Probed {
  steps: ProbeStep[];
  classification: string;
  canary: boolean;
}

describe("the e-Devlet canary against the simulator", () => {
  it("passes against the simulator's form, and fails (counted) against a barcode it answers with a changed page", async () => {
    const log = new RecordingLog();
    const authority = edevletFormAuthority({ url: simulator.url });
    expect(await runCanary({ authority, log, environment: "sandbox" })).toBe("passed");
    const changed: Authority = { lookup: (request) => authority.lookup({ ...request, barcode: "SIMODD-0001" }) };
    expect(await runCanary({ authority: changed, log, environment: "sandbox" })).toBe("failed");
    expect(log.counts.map(({ metric }) => metric)).toEqual(["EdevletCanaryFailed"]);
  });
});

describe("ops issuer probe", () => {
  it("asks the canary's barcode by default of the runtime's e-Devlet, and reads the documented negative", async () => {
    const run = await probe(["--json"]);
    expect(run).toMatchObject({ exit: EXIT.ok, stderr: "" });
    const probed = JSON.parse(run.stdout) as Probed;
    expect(probed).toMatchObject({ classification: "not_found", canary: true });
    const requests = probed.steps.filter((step) => step.kind === "request");
    expect(requests.map((step) => `${step.method} ${step.path} ${step.status}`)).toEqual([
      `GET ${EDEVLET_FORM.start} 200`,
      `POST ${EDEVLET_FORM.barcode} 302`,
      `GET ${EDEVLET_FORM.start} 200`,
    ]);
    expect(probed.steps.find((step) => step.kind === "page")).toMatchObject({ token: expect.stringMatching(/^\{/) });
    expect(run.stdout).not.toContain(CANARY_LOOKUP.identityNumber);
  });

  it("shows each step, the link and the classification of a held certificate, never the number or the document", async () => {
    for (const protocol of ["form", "mobile"]) {
      const run = await probe([
        "--barcode",
        ACTIVE.barcode,
        "--identity-number",
        ACTIVE.identityNumber,
        "--protocol",
        protocol,
      ]);
      expect([protocol, run.exit, run.stderr]).toEqual([protocol, EXIT.ok, ""]);
      expect(run.stdout).toMatch(/classification: found \(a PDF of \d+ bytes\)/);
      if (protocol === "form") expect(run.stdout).toContain("link /belge-dogrulama?belge=goster");
      else expect(run.stdout).toContain("tckn:***");
      expect(run.stdout).not.toContain(ACTIVE.identityNumber);
      expect(run.stdout).not.toContain("%PDF");
    }
  });

  it("fails when the answer is not what it must be: a changed page for the canary, unavailable for a barcode", async () => {
    const run = await probe(["--barcode", "SIMODD-0001", "--identity-number", ACTIVE.identityNumber]);
    expect(run.exit).toBe(EXIT.failed);
    expect(run.stdout).toContain("classification: unavailable_unrecognised");
    const mobileCanary = await probe(["--protocol", "mobile"]);
    // The mobile endpoint documents no negative: its canary cannot pass.
    expect(mobileCanary.exit).toBe(EXIT.failed);
    expect(mobileCanary.stdout).toContain("not the documented negative");
  });

  it("refuses a barcode without its number, and an identity number that is not one", async () => {
    expect((await probe(["--barcode", ACTIVE.barcode])).exit).toBe(EXIT.usage);
    expect((await probe(["--barcode", ACTIVE.barcode, "--identity-number", "12345678901"])).exit).toBe(EXIT.usage);
  });
});

describe("ops issuer record", () => {
  it("saves one lookup as a cassette: the number and cookies' values redacted, the PDF as its hash and size", async () => {
    const out = path.join(folder, "cassette-found");
    const run = await opsInProcess(
      ["issuer", "record", "--barcode", ACTIVE.barcode, "--identity-number", ACTIVE.identityNumber, "--out", out],
      folder,
    );
    expect([run.exit, run.stderr]).toEqual([EXIT.ok, ""]);
    const text = readFileSync(path.join(out, "cassette.json"), "utf8");
    expect(text).not.toContain(ACTIVE.identityNumber);
    expect(text).not.toContain("%PDF");
    const cassette = JSON.parse(text) as Cassette;
    expect(cassette).toMatchObject({ protocol: "form", barcode: ACTIVE.barcode, classification: "found" });
    const cookies = cassette.exchanges.flatMap((exchange) => exchange.headers["set-cookie"] ?? []);
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).toMatch(/^[^=]+=redacted;/);
    expect(cassette.exchanges.at(-1)?.body).toEqual({
      pdf: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/), size: expect.any(Number) },
    });
    expect(cassette.exchanges.find((exchange) => exchange.form?.ikinciAlan)?.form?.ikinciAlan).toBe(REDACTED_NUMBER);
  });
});
