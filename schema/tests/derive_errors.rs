//! Misused `#[schema]` attributes are compile errors pointing at the attribute.

#[test]
fn misuse_is_a_spanned_compile_error() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
