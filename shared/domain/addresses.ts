/**
 * Which addresses a webhook may reach. Addresses are read by `ipaddr.js`, whose range tables
 * follow the IANA special-purpose registries, so no form of an inward address is parsed here.
 */
import { isIP } from "node:net";
import type IpAddr from "ipaddr.js";
import type { Destinations } from "./environments.ts";

let loaded: { ipaddr: typeof IpAddr; globalUnicastV6: [IpAddr.IPv6, number] } | undefined;

/**
 * `ipaddr.js`, loaded when an address is first read rather than when a function starts: its
 * range tables cost a cold start they rarely serve. With it, IPv6 global unicast (RFC 4291):
 * every form that carries an IPv4 address or reaches inward lies outside it (mapped,
 * compatible, NAT64, discard-only) or in a range `ipaddr.js` names (6to4, Teredo,
 * documentation, ORCHID, benchmarking).
 */
function addresses() {
  if (!loaded) {
    const ipaddr = require("ipaddr.js") as typeof IpAddr;
    loaded = { ipaddr, globalUnicastV6: ipaddr.IPv6.parseCIDR("2000::/3") };
  }
  return loaded;
}

/** True only for an address in no special-use range: one that may be public on the Internet. */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  const { ipaddr, globalUnicastV6 } = addresses();
  const parsed = ipaddr.parse(address);
  if (parsed.range() !== "unicast") return false;
  return parsed.kind() === "ipv4" || ipaddr.IPv6.parse(address).match(globalUnicastV6);
}

/** True for 127.0.0.0/8 and ::1: the machine itself, written plainly. */
export function isLoopbackAddress(address: string): boolean {
  return isIP(address) !== 0 && addresses().ipaddr.parse(address).range() === "loopback";
}

/** Whether `address` may be connected to under `destinations`. */
export function mayReach(address: string, destinations: Destinations): boolean {
  return isPublicAddress(address) || (destinations === "public-or-loopback" && isLoopbackAddress(address));
}

/** True when `host` is an IP address rather than a name. */
export function isAddressLiteral(host: string): boolean {
  return isIP(host) !== 0;
}

/** The host of a URL as an address or a name, without the brackets of an IPv6 literal. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}
