import { describe, expect, it } from "vitest";
import { isPrivateAddress } from "#shared/domain/addresses";

describe("isPrivateAddress", () => {
  it.each([
    ["0.0.0.0", true],
    ["10.1.2.3", true],
    ["100.64.0.1", true],
    ["127.0.0.1", true],
    ["169.254.169.254", true],
    ["172.31.255.255", true],
    ["192.168.0.1", true],
    ["224.0.0.1", true],
    ["8.8.8.8", false],
    ["172.32.0.1", false],
  ])("IPv4 %s: %s", (address, blocked) => {
    expect(isPrivateAddress(address)).toBe(blocked);
  });

  it.each([
    ["::", true],
    ["::1", true],
    ["0:0:0:0:0:0:0:1", true],
    ["fc00::1", true],
    ["fd12:3456::1", true],
    ["fe80::1", true],
    ["ff02::1", true],
    ["2001:db8::1", false],
    ["2606:4700:4700::1111", false],
    ["fec0::1", false],
  ])("IPv6 %s: %s", (address, blocked) => {
    expect(isPrivateAddress(address)).toBe(blocked);
  });

  it.each([
    // IPv4-mapped, dotted and in the hex form a URL parser writes
    ["::ffff:10.0.0.1", true],
    ["::ffff:a00:1", true],
    ["::ffff:a9fe:a9fe", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:8.8.8.8", false],
    ["::ffff:808:808", false],
    // IPv4-compatible and NAT64
    ["::127.0.0.1", true],
    ["64:ff9b::a00:1", true],
    ["64:ff9b::808:808", false],
  ])("an IPv4 address inside IPv6, %s: %s", (address, blocked) => {
    expect(isPrivateAddress(address)).toBe(blocked);
  });

  it("refuses what is not an address at all", () => {
    expect(isPrivateAddress("hooks.example.com")).toBe(true);
  });
});
