import { describe, expect, it } from "vitest";
import { isLoopbackAddress, isPublicAddress, mayReach } from "#shared/domain/addresses";
import { destinationsFor } from "#shared/domain/environments";

describe("isPublicAddress", () => {
  it.each(["8.8.8.8", "93.184.215.14", "172.32.0.1", "192.0.3.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"])(
    "accepts the public address %s",
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it.each([
    ["this network", "0.0.0.0"],
    ["private", "10.1.2.3"],
    ["shared address space", "100.64.0.1"],
    ["loopback", "127.0.0.1"],
    ["link-local, the metadata address", "169.254.169.254"],
    ["private", "172.31.255.255"],
    ["IETF protocol assignments", "192.0.0.8"],
    ["documentation", "192.0.2.1"],
    ["private", "192.168.0.1"],
    ["benchmarking", "198.18.0.1"],
    ["documentation", "203.0.113.10"],
    ["multicast", "224.0.0.1"],
    ["reserved", "240.0.0.1"],
    ["broadcast", "255.255.255.255"],
    ["unspecified", "::"],
    ["loopback", "::1"],
    ["loopback, written long", "0:0:0:0:0:0:0:1"],
    ["IPv4-mapped loopback", "::ffff:7f00:1"],
    ["IPv4-mapped metadata", "::ffff:a9fe:a9fe"],
    ["IPv4-mapped public (still not a v6 destination)", "::ffff:808:808"],
    ["IPv4-translated", "::ffff:0:7f00:1"],
    ["IPv4-compatible", "::a9fe:a9fe"],
    ["NAT64", "64:ff9b::a9fe:a9fe"],
    ["NAT64 of a public address", "64:ff9b::808:808"],
    ["local-use NAT64", "64:ff9b:1::1"],
    ["6to4", "2002:7f00:1::"],
    ["Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["documentation", "2001:db8::1"],
    ["discard-only", "100::1"],
    ["unique local", "fd12:3456::1"],
    ["link-local", "fe80::1"],
    ["link-local with a zone", "fe80::1%eth0"],
    ["site-local (deprecated)", "fec0::1"],
    ["multicast", "ff02::1"],
    ["a name, not an address", "hooks.example.com"],
    ["a short IPv4 form", "127.1"],
  ])("refuses %s: %s", (_kind, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe("mayReach", () => {
  it("lets loopback through only where the rule allows it, and nothing else inward", () => {
    expect(["127.0.0.1", "127.9.9.9", "::1"].every(isLoopbackAddress)).toBe(true);
    expect(mayReach("127.0.0.1", "public-or-loopback")).toBe(true);
    expect(mayReach("::1", "public-or-loopback")).toBe(true);
    expect(mayReach("127.0.0.1", "public")).toBe(false);
    expect(mayReach("::ffff:7f00:1", "public-or-loopback")).toBe(false);
    expect(mayReach("10.0.0.1", "public-or-loopback")).toBe(false);
    expect(mayReach("8.8.8.8", "public")).toBe(true);
  });

  it("allows loopback to the local runtime playing sandbox only", () => {
    expect(destinationsFor("sandbox", "local")).toBe("public-or-loopback");
    expect(destinationsFor("production", "local")).toBe("public");
    expect(destinationsFor("sandbox", "deployed")).toBe("public");
    expect(destinationsFor("production", "deployed")).toBe("public");
  });
});
