//! Snapshots of what the derive emits for representative structs, so a
//! reviewer sees the generated code change with the generator.

use quote::quote;

fn expand(input: proc_macro2::TokenStream) -> String {
    let input: syn::DeriveInput = syn::parse2(input).expect("test input parses");
    let tokens = super::derive(&input, super::Root::Formats).expect("test input expands");
    let mut file: syn::File = syn::parse2(tokens).expect("expansion is a file");
    // prettyplease leaves a macro's input as it is, so the test module
    // inside `testing_only! { ... }` is shown formatted after the rest.
    let mut gated = Vec::new();
    file.items.retain(|item| match item {
        syn::Item::Macro(item)
            if item
                .mac
                .path
                .segments
                .last()
                .is_some_and(|last| last.ident == "testing_only") =>
        {
            gated.push(item.mac.tokens.clone());
            false
        }
        _ => true,
    });
    let mut text = prettyplease::unparse(&file);
    for tokens in gated {
        let module: syn::File = syn::parse2(tokens).expect("the gated input is items");
        text.push_str("\n// Inside `testing_only! { ... }`:\n");
        text.push_str(&prettyplease::unparse(&module));
    }
    text
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
fn fields_sharing_a_chunk_options_by_the_next_tag_and_a_list_in_a_form() {
    insta::assert_snapshot!(expand(quote! {
        #[schema(little)]
        struct Body {
            #[schema(chunk = "INFO")]
            count: Count<i32>,
            #[schema(chunk = "INFO")]
            layer: i16,
            #[schema(chunk = "NORM", count = count)]
            normals: Option<Vec<[f32; 3]>>,
            #[schema(form = "BLTS", count = count)]
            targets: Vec<Target>,
            extra: Option<Extra>,
            #[schema(to_end)]
            unknown: Vec<RawChunk>,
        }
    }));
}

#[test]
fn a_chunk_struct_and_an_enum_of_chunks_and_wrapped_versions() {
    insta::assert_snapshot!(expand(quote! {
        #[schema(little, chunk = "ITL ")]
        struct Triangles {
            #[schema(prefix = i32)]
            corners: Vec<[i32; 3]>,
        }
    }));
    insta::assert_snapshot!(expand(quote! {
        enum Primitive {
            Indexed(Triangles),
            #[schema(form = "0004")]
            Wrapped(Body),
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

#[test]
fn a_count_given_as_context_and_context_passed_on() {
    insta::assert_snapshot!(expand(quote! {
        /// Records counted by the header.
        #[schema(little, context(record_count: u32, mode: u8))]
        pub struct Frame {
            #[schema(count = record_count)]
            records: Vec<Record>,
            #[schema(present_if = mode, context(mode))]
            extra: Option<Extra>,
        }
    }));
}

#[test]
fn an_enum_chosen_by_a_tag_with_an_other_variant() {
    insta::assert_snapshot!(expand(quote! {
        #[schema(little, tag = u8)]
        enum Token {
            #[schema(when = 0xFF)]
            Full(f32),
            #[schema(when = 0xFE)]
            Repeat(u16),
            #[schema(other)]
            Delta(u8),
        }
    }));
}

#[test]
fn a_text_enum_chosen_by_a_context_value_and_a_keyword_enum() {
    insta::assert_snapshot!(expand(quote! {
        #[schema(text, context(representation: Representation), select = representation)]
        enum Transform {
            #[schema(when = Representation::Matrix)]
            Matrix(Matrix),
            #[schema(when = Representation::Euler)]
            Euler(Euler),
        }
    }));
    insta::assert_snapshot!(expand(quote! {
        #[schema(text)]
        enum Representation {
            #[schema(keyword = "Matrix")]
            Matrix,
            #[schema(keyword = "Euler Angles")]
            Euler,
        }
    }));
}

#[test]
fn a_text_record_with_a_count_line_shared_and_a_list_to_the_end() {
    insta::assert_snapshot!(expand(quote! {
        #[schema(text)]
        struct Animation {
            name_count: Count<u32>,
            #[schema(count = name_count, line)]
            names: Vec<RawString>,
            #[schema(count = name_count)]
            parents: Vec<i32>,
            bones: u32,
            #[schema(to_end, context(bones))]
            frames: Vec<Frame>,
        }
    }));
}

#[test]
fn a_text_record_with_a_constant_a_line_and_a_list() {
    insta::assert_snapshot!(expand(quote! {
        #[schema(text)]
        struct Mesh {
            #[schema(style)]
            style: TextStyle,
            #[schema(magic = "mesh 1")]
            version: Magic,
            #[schema(line)]
            name: RawString,
            #[schema(prefix)]
            vertices: Vec<Vertex>,
        }
    }));
}

#[test]
fn a_text_record_with_comments_names_shared_lines_presence_and_checks() {
    insta::assert_snapshot!(expand(quote! {
        #[schema(text, comments, context(bone_count: u32))]
        struct Bone {
            #[schema(angle_brackets)]
            name: RawString,
            #[schema(none = "*", check = below(bone_count))]
            parent: Option<u32>,
            key_count: Count<u32>,
            #[schema(same_line)]
            flags: u8,
            #[schema(count = key_count, check = ascending)]
            keys: Vec<Key>,
            #[schema(present_if = flags)]
            extra: Option<f32>,
        }
    }));
}

#[test]
fn the_crate_attribute_roots_every_runtime_path() {
    let input = syn::parse2(quote! {
        #[schema(little, crate = "renamed::schema_runtime")]
        struct Point {
            #[schema(prefix = u8)]
            coordinates: Vec<f32>,
            #[schema(pascal)]
            label: RawString,
        }
    })
    .expect("test input parses");
    let tokens = super::derive(&input, super::Root::Formats)
        .expect("test input expands")
        .to_string();
    assert!(!tokens.contains(":: formats"), "{tokens}");
    assert!(!tokens.contains(":: schema :: __private"), "{tokens}");
    let root = "renamed :: schema_runtime :: __private ::";
    for item in [
        "Decode for Point",
        "testing_only !",
        "testing :: Sample for Point",
    ] {
        assert!(
            tokens.contains(&format!("{root} {item}")),
            "{item}: {tokens}"
        );
    }
}

#[test]
fn a_plain_struct_and_a_run_of_plain_fields() {
    insta::assert_snapshot!(expand(quote! {
        #[schema(little)]
        struct Vertex {
            position: [f32; 3],
            #[schema(big)]
            bone: u16,
        }
    }));
    insta::assert_snapshot!(expand(quote! {
        #[schema(little)]
        struct Bone {
            #[schema(pascal)]
            name: RawString,
            translation: [f32; 3],
            rotation: [f32; 4],
        }
    }));
}

#[test]
fn a_type_with_both_encodings() {
    insta::assert_snapshot!(expand(quote! {
        /// A bone, stored as text lines or as little-endian bytes.
        #[schema(binary(little), text, context(version: u32))]
        struct Bone {
            #[schema(text(line), binary(pascal))]
            name: RawString,
            #[schema(text(vector))]
            translation: [f32; 3],
            #[schema(prefix = u32, present_if = version >= 300)]
            properties: Option<Vec<Property>>,
        }
    }));
}

#[test]
fn a_type_with_both_encodings_whose_binary_alone_takes_a_byte_order() {
    insta::assert_snapshot!(expand(quote! {
        /// A run of values counted by its holder, in the byte order its
        /// holder gives the binary encoding alone.
        #[schema(binary(context(order: Endian), endian = order), text, context(len: u32))]
        struct Run {
            #[schema(count = len)]
            values: Vec<i16>,
            #[schema(binary(context(order)))]
            span: Span,
        }
    }));
}
