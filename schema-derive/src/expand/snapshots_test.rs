//! Snapshots of what the derive emits for representative structs, so a
//! reviewer sees the generated code change with the generator.

use quote::quote;

fn expand(input: proc_macro2::TokenStream) -> String {
    let input: syn::DeriveInput = syn::parse2(input).expect("test input parses");
    let tokens = super::derive(&input).expect("test input expands");
    prettyplease::unparse(&syn::parse2(tokens).expect("expansion is a file"))
}

#[test]
fn mixed_byte_order_strings_and_a_length_prefix() {
    insta::assert_snapshot!(expand(quote! {
        /// A named list of points.
        #[schema(big)]
        struct Shape {
            #[schema(pascal)]
            name: RawString,
            #[schema(little)]
            scale: f32,
            #[schema(prefix = u16)]
            points: Vec<[f32; 2]>,
        }
    }));
}

#[test]
fn a_count_shared_by_two_collections() {
    insta::assert_snapshot!(expand(quote! {
        #[schema(little)]
        struct Table {
            #[schema(magic = b"TABL")]
            tag: Magic,
            row_count: Count<u32>,
            #[schema(count = row_count, null_terminated)]
            names: Vec<RawString>,
            #[schema(count = row_count)]
            parents: Vec<i32>,
        }
    }));
}

#[test]
fn options_by_flag_and_by_an_earlier_field() {
    insta::assert_snapshot!(expand(quote! {
        #[schema(big)]
        struct Bone {
            #[schema(flag = u8)]
            offset: Option<u32>,
            has_properties: u8,
            #[schema(present_if = has_properties, prefix = u32)]
            properties: Option<Vec<Property>>,
        }
    }));
}

#[test]
fn a_form_whose_chunks_share_a_count() {
    insta::assert_snapshot!(expand(quote! {
        #[schema(little, form = "0002")]
        struct Columns {
            #[schema(chunk = "INFO")]
            count: Count<u32>,
            #[schema(chunk = "NAME", null_terminated, count = count)]
            names: Vec<RawString>,
            #[schema(count = count)]
            children: Vec<Child>,
        }
    }));
}

#[test]
fn an_enum_of_version_forms() {
    insta::assert_snapshot!(expand(quote! {
        /// Known versions.
        enum Version {
            /// `FORM 0001`.
            V1(VersionOne),
            V2(VersionTwo),
        }
    }));
}
