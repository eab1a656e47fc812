import { describe, expect, it } from "vitest";
import { readableFrameName } from "./readable-frame-name.js";

describe("readableFrameName", () => {
  it("drops the legacy Rust symbol hash wherever it appears", () => {
    expect(readableFrameName("rust_app::main::hdef004be3889c5e0")).toBe("rust_app::main");
    expect(readableFrameName("std::rt::lang_start::_$u7b$$u7b$closure$u7d$$u7d$::h99e3e7792c3e8195")).toBe(
      "std::rt::lang_start::{{closure}}",
    );
    expect(readableFrameName("<F as core::ops::Fn>::call::h0123456789abcdef::{closure#0}")).toBe(
      "<F as core::ops::Fn>::call::{closure#0}",
    );
  });

  it("decodes the legacy mangling's escapes (issue 26: `semdemo::main::_$u7b$$u7b$closure$u7d$$u7d$`)", () => {
    expect(readableFrameName("semdemo::main::_$u7b$$u7b$closure$u7d$$u7d$")).toBe("semdemo::main::{{closure}}");
    expect(
      readableFrameName(
        "_$LT$core..slice..iter..Iter$LT$T$GT$$u20$as$u20$core..iter..traits..iterator..Iterator$GT$::fold::hbdfd1e8faa297f48",
      ),
    ).toBe("<core::slice::iter::Iter<T> as core::iter::traits::iterator::Iterator>::fold");
    expect(
      readableFrameName(
        "_$LT$core..iter..adapters..map..Map$LT$I$C$F$GT$$u20$as$u20$core..iter..traits..iterator..Iterator$GT$::fold",
      ),
    ).toBe("<core::iter::adapters::map::Map<I,F> as core::iter::traits::iterator::Iterator>::fold");
    expect(readableFrameName("_$LT$$RF$T$u20$as$u20$core..fmt..Debug$GT$::fmt")).toBe("<&T as core::fmt::Debug>::fmt");
  });

  it("keeps names that only look alike", () => {
    expect(readableFrameName("price$usd::total")).toBe("price$usd::total");
    expect(readableFrameName("range..end")).toBe("range..end");
    expect(readableFrameName("module::handler")).toBe("module::handler");
    expect(readableFrameName("a::h0123456789abcde")).toBe("a::h0123456789abcde");
    expect(readableFrameName("a::h0123456789abcdef0")).toBe("a::h0123456789abcdef0");
    expect(readableFrameName("a::H0123456789ABCDEF")).toBe("a::H0123456789ABCDEF");
    expect(readableFrameName("add")).toBe("add");
  });
});
