/** Which addresses a production webhook may not reach. */
import { isIPv4, isIPv6 } from "node:net";

/** IPv4 ranges no production webhook may reach: private, loopback, link-local, and the like. */
const BLOCKED_V4: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

function v4ToNumber(address: string): number {
  return address.split(".").reduce((value, part) => value * 256 + Number(part), 0);
}

function blockedV4(address: string): boolean {
  const value = v4ToNumber(address);
  return BLOCKED_V4.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const start = v4ToNumber(base);
    return value >= start && value < start + size;
  });
}

function blockedV6(address: string): boolean {
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped?.[1]) return blockedV4(mapped[1]);
  return (
    lower === "::" ||
    lower === "::1" ||
    /^f[cd]/.test(lower) || // unique local fc00::/7
    /^fe[89ab]/.test(lower) || // link-local fe80::/10
    /^ff/.test(lower) // multicast
  );
}

/** True for an address a production webhook must not be sent to. */
export function isPrivateAddress(address: string): boolean {
  if (isIPv4(address)) return blockedV4(address);
  if (isIPv6(address)) return blockedV6(address);
  return true;
}

/** True when `host` is an IP address rather than a name. */
export function isAddressLiteral(host: string): boolean {
  return isIPv4(host) || isIPv6(host);
}

/** The host of a URL as an address or a name, without the brackets of an IPv6 literal. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}
