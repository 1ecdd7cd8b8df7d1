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

function blockedV4(value: number): boolean {
  return BLOCKED_V4.some(([base, bits]) => {
    const start = v4ToNumber(base);
    return value >= start && value < start + 2 ** (32 - bits);
  });
}

/** An IPv4 address as the last two groups of an IPv6 one: `a.b.c.d` -> `hhhh:llll`. */
function twoGroups(v4: number): string {
  return `${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
}

/** The eight 16-bit groups of an IPv6 address (one that `isIPv6` accepts). */
function v6Groups(address: string): number[] {
  // A trailing dotted IPv4 part stands for the last two groups.
  const dotted = /\d+\.\d+\.\d+\.\d+$/.exec(address)?.[0];
  const text = dotted === undefined ? address : `${address.slice(0, -dotted.length)}${twoGroups(v4ToNumber(dotted))}`;
  const [head = "", tail] = text.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** 96-bit IPv6 prefixes whose last 32 bits are an IPv4 address: mapped, compatible, NAT64. */
const EMBEDS_V4: number[][] = [
  [0, 0, 0, 0, 0, 0xffff],
  [0, 0, 0, 0, 0, 0],
  [0x64, 0xff9b, 0, 0, 0, 0],
];

function blockedV6(address: string): boolean {
  const groups = v6Groups(address.toLowerCase());
  const [first = 0, , , , , , high = 0, low = 0] = groups;
  // Judged by the IPv4 address inside, in whatever form it was written; :: and ::1 are 0.0.0.0/8.
  if (EMBEDS_V4.some((prefix) => prefix.every((group, i) => groups[i] === group))) {
    return blockedV4(high * 0x10000 + low);
  }
  return (
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xff00) === 0xff00 // multicast ff00::/8
  );
}

/** True for an address a production webhook must not be sent to. */
export function isPrivateAddress(address: string): boolean {
  if (isIPv4(address)) return blockedV4(v4ToNumber(address));
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
