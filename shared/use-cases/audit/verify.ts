/**
 * `ops audit verify`: walks the trail's months and names the first record that does not follow
 * from the one before it (`domain/audit.ts`), or says every month's chain holds.
 */
import { type BrokenLink, brokenLink } from "../../domain/audit.ts";
import type { AuditChain } from "../../ports/audit-trail.ts";
import type { Clock } from "../../ports/clock.ts";

/** How far back the trail reaches: its retention, month by month. */
const RETENTION_MONTHS = 25;

/** One month as checked: how many records its chain holds. */
export interface MonthChecked {
  month: string;
  records: number;
}

export interface ChainCheck {
  months: MonthChecked[];
  /** The first break, and its month; absent when every chain holds. */
  broken?: BrokenLink & { month: string };
}

/** The months from `from` to `to` (`YYYY-MM`), oldest first. */
function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  const date = new Date(`${from}-01T00:00:00Z`);
  while (date.toISOString().slice(0, 7) <= to) {
    months.push(date.toISOString().slice(0, 7));
    date.setUTCMonth(date.getUTCMonth() + 1);
  }
  return months;
}

/** Checks the months from `from` (the retention's first by default) to `to` (this month by default), oldest first. */
export async function verifyAuditChain(
  deps: { audit: AuditChain; clock: Clock },
  range: { from?: string; to?: string },
): Promise<ChainCheck> {
  const now = deps.clock.now();
  const earliest = new Date(now);
  earliest.setUTCMonth(earliest.getUTCMonth() - (RETENTION_MONTHS - 1));
  const from = range.from ?? earliest.toISOString().slice(0, 7);
  const to = range.to ?? now.toISOString().slice(0, 7);
  const months: MonthChecked[] = [];
  for (const month of monthsBetween(from, to)) {
    const [records, head] = await Promise.all([deps.audit.chained(month), deps.audit.head(month)]);
    if (records.length === 0 && !head) continue;
    months.push({ month, records: records.length });
    const unlinked = records.find(({ link }) => typeof link.seq !== "number" || !link.hash || !link.prev);
    if (unlinked) {
      return {
        months,
        broken: {
          month,
          audit_id: unlinked.record.audit_id,
          seq: 0,
          reason: "the record carries no link: it was put in beside the chain",
        },
      };
    }
    const broken = brokenLink(records, head);
    if (broken) return { months, broken: { ...broken, month } };
  }
  return { months };
}
