import { describe, expect, it } from "vitest";
import { sameSubject } from "#shared/domain/certificates/subject";

const PRINTED = { full_name: "AYŞE NUR YILMAZ", birth_date: "2003-02-01" };

describe("sameSubject", () => {
  it("matches the name after Turkish-aware folding and spacing, and the date exactly", () => {
    expect(sameSubject({ full_name: "ayse  nur yılmaz", birth_date: "2003-02-01" }, PRINTED)).toBe(true);
    expect(sameSubject({ full_name: " Ayşe Nur Yilmaz " }, PRINTED)).toBe(true);
    expect(sameSubject({ birth_date: "2003-02-01" }, PRINTED)).toBe(true);
  });

  it("refuses another name or another date", () => {
    expect(sameSubject({ full_name: "AYŞE YILMAZ" }, PRINTED)).toBe(false);
    expect(sameSubject({ birth_date: "2003-01-02" }, PRINTED)).toBe(false);
    expect(sameSubject({ full_name: "AYŞE NUR YILMAZ", birth_date: "2003-02-02" }, PRINTED)).toBe(false);
    expect(sameSubject({ full_name: "AYŞE NUR YILDIZ", birth_date: "2003-02-01" }, PRINTED)).toBe(false);
  });

  it("refuses a field the certificate does not print", () => {
    expect(sameSubject({ full_name: "AYŞE NUR YILMAZ" }, { full_name: null, birth_date: "2003-02-01" })).toBe(false);
    expect(sameSubject({ birth_date: "2003-02-01" }, { full_name: "AYŞE", birth_date: null })).toBe(false);
  });
});
