//! `Layout`: the field table the format reference is generated from.

use proc_macro2::TokenStream;
use quote::quote;

use super::heading::{Bound, Heading};
use super::paths::Runtime;
use super::sizes::field_sizes;
use super::tokens::{optional_str, str_lit, tag_str, width_of};
use crate::ast::unwrap_generic;
use crate::attr::{ByteOrder, PadLength, StringKind};
use crate::plan::{
    Binary, BinaryPlan, BinaryType, Codec, Element, Framing, OffsetBase, Presence, Repeat, Value,
};

pub fn layout_impl(rt: &Runtime, ty: &BinaryType) -> TokenStream {
    let byte_order = byte_order(rt, &ty.shape.byte_order);
    // Each field's offset is the previous offset plus the previous fixed
    // size, while all of them are fixed; a form's or chunk's fields follow
    // its header.
    let mut offset = match ty.shape.framing {
        Framing::Form(_) => quote!(::core::option::Option::Some(#rt::FORM_HEADER_SIZE)),
        Framing::Chunk(_) => quote!(::core::option::Option::Some(#rt::CHUNK_HEADER_SIZE)),
        Framing::None => quote!(::core::option::Option::Some(0u64)),
    };
    let fields = ty.fields.iter().map(|plan| {
        let field = field_layout(rt, plan, &offset);
        let (_, fixed) = field_sizes(rt, plan);
        offset = quote!(#rt::add_fixed(#offset, #fixed));
        field
    });
    let (form, chunk) = match ty.shape.framing {
        Framing::Form(form) => (Some(form), None),
        Framing::Chunk(chunk) => (None, Some(chunk)),
        Framing::None => (None, None),
    };
    let layout = TypeLayout {
        byte_order,
        form,
        chunk,
        context: context_layout(rt, ty.params),
        chosen_by: None,
        fields: fields.collect(),
        sizes: if ty.shape.tail.is_some() {
            SizesFrom::Tail
        } else {
            SizesFrom::Decode
        },
    };
    type_layout_impl(rt, Heading::of(ty), ty.doc, layout)
}

/// What a type's `Layout` says of it besides its name and doc.
pub(super) struct TypeLayout {
    pub byte_order: TokenStream,
    pub form: Option<[u8; 4]>,
    pub chunk: Option<[u8; 4]>,
    pub context: TokenStream,
    /// What chooses an enum's variant.
    pub chosen_by: Option<String>,
    pub fields: Vec<TokenStream>,
    pub sizes: SizesFrom,
}

/// Where a type's layout finds its sizes in bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum SizesFrom {
    /// Its `Decode` impl.
    Decode,
    /// Its `WordTail` impl: the bytes after its holder's word.
    Tail,
    /// A text type has none.
    Text,
}

/// `impl Layout for ident`; a text type's `TextLayout` is the same.
pub(super) fn type_layout_impl(
    rt: &Runtime,
    heading: Heading,
    doc: &str,
    layout: TypeLayout,
) -> TokenStream {
    let ident = heading.ident();
    let text_layout = (layout.sizes == SizesFrom::Text).then(|| {
        quote! {
            impl #rt::TextLayout for #ident {
                const TEXT_LAYOUT: #rt::TypeLayout = <Self as #rt::Layout>::LAYOUT;
            }
        }
    });
    let value = type_layout_value(rt, ident, doc, layout);
    let (impl_params, this) = heading.split(rt, Bound::Binary);
    quote! {
        impl #impl_params #rt::Layout for #this {
            const LAYOUT: #rt::TypeLayout = #value;
        }
        #text_layout
    }
}

/// `impl TextLayout for ident` alone: the text layout of a type with both
/// encodings, whose `Layout` is the binary one.
pub(super) fn text_layout_beside_binary_impl(
    rt: &Runtime,
    ident: &syn::Ident,
    doc: &str,
    layout: TypeLayout,
) -> TokenStream {
    let value = type_layout_value(rt, ident, doc, layout);
    quote! {
        impl #rt::TextLayout for #ident {
            const TEXT_LAYOUT: #rt::TypeLayout = #value;
        }
    }
}

/// The `TypeLayout` value itself.
fn type_layout_value(
    rt: &Runtime,
    ident: &syn::Ident,
    doc: &str,
    layout: TypeLayout,
) -> TokenStream {
    let name = str_lit(&ident.to_string());
    let doc = str_lit(doc);
    let TypeLayout {
        byte_order,
        form,
        chunk,
        context,
        chosen_by,
        fields,
        sizes,
    } = layout;
    let form = optional_str(form.map(tag_str));
    let chunk = optional_str(chunk.map(tag_str));
    let chosen_by = optional_str(chosen_by);
    let (min_size, fixed_size) = match sizes {
        SizesFrom::Text => (quote!(0), quote!(::core::option::Option::None)),
        SizesFrom::Tail => (
            quote!(<Self as #rt::WordTail>::MIN_SIZE),
            quote!(::core::option::Option::None),
        ),
        SizesFrom::Decode => (
            quote!(<Self as #rt::Decode>::MIN_SIZE),
            quote!(<Self as #rt::Decode>::FIXED_SIZE),
        ),
    };
    quote! {
        #rt::TypeLayout {
            name: #name,
            doc: #doc,
            byte_order: #byte_order,
            form: #form,
            chunk: #chunk,
            context: #context,
            chosen_by: #chosen_by,
            fields: &[#(#fields),*],
            min_size: #min_size,
            fixed_size: #fixed_size,
        }
    }
}

fn field_layout(rt: &Runtime, plan: &BinaryPlan, offset: &TokenStream) -> TokenStream {
    let field = plan.field;
    let name = str_lit(&field.ident.to_string());
    let rust_type = str_lit(&type_text(field.ty));
    let encoding = str_lit(&framed_encoding(plan));
    let byte_order = byte_order(rt, &plan.place.byte_order);
    let count = optional_str(count_source(&plan.codec));
    let nested = match &plan.codec {
        _ if plan.place.bits.is_some() => quote!(::core::option::Option::None),
        Codec::Value(Value {
            offset: Some(offsets),
            ..
        }) => {
            let ty = offsets.value;
            quote!(<#ty as #rt::Decode>::NESTED_LAYOUT)
        }
        Codec::Value(
            value @ Value {
                element: Element::Plain,
                ..
            },
        ) => {
            let ty = value.stored_ty();
            quote!(<#ty as #rt::Decode>::NESTED_LAYOUT)
        }
        _ => quote!(::core::option::Option::None),
    };
    let chunk = optional_str(plan.place.chunk.map(tag_str));
    let doc = str_lit(&field.doc);
    let none = quote!(::core::option::Option::None);
    let (element_size, elements_offset, inner_element_size) = match &plan.codec {
        _ if plan.place.bits.is_some() => (none.clone(), none.clone(), none),
        // A list of offsets: its elements are the offsets.
        Codec::Value(Value {
            offset: Some(offsets),
            repeat,
            ..
        }) => {
            let ty = &offsets.ty;
            let start = match repeat {
                Some(Repeat::Prefix(_, prefix)) => quote!(<#prefix as #rt::Decode>::FIXED_SIZE),
                _ => quote!(::core::option::Option::Some(0u64)),
            };
            match repeat {
                Some(_) => (quote!(<#ty as #rt::Decode>::FIXED_SIZE), start, none),
                None => (none.clone(), none.clone(), none),
            }
        }
        _ => elements(rt, &plan.codec),
    };
    quote! {
        #rt::FieldLayout {
            name: #name,
            rust_type: #rust_type,
            encoding: #encoding,
            byte_order: #byte_order,
            count: #count,
            chunk: #chunk,
            offset: #offset,
            element_size: #element_size,
            elements_offset: #elements_offset,
            inner_element_size: #inner_element_size,
            doc: #doc,
            nested: #nested,
        }
    }
}

/// A row of a layout with no elements to place: a variant, a text field.
/// `head` states its `name` to its `count`, `tail` its `doc` and
/// `nested`; `offset` is where it begins, when known.
pub(super) fn elementless_row(
    rt: &Runtime,
    head: TokenStream,
    offset: TokenStream,
    tail: TokenStream,
) -> TokenStream {
    let none = quote!(::core::option::Option::None);
    quote! {
        #rt::FieldLayout {
            #head
            chunk: #none,
            offset: #offset,
            element_size: #none,
            elements_offset: #none,
            inner_element_size: #none,
            #tail
        }
    }
}

/// A list's or an array's element size, where its first element starts in
/// the field's bytes (after a count stored before them) and, for a list of
/// arrays, the arrays' element size, as `Option<u64>` expressions; `None`
/// for other fields, and where the field begins with a flag.
fn elements(rt: &Runtime, codec: &Codec<Binary>) -> (TokenStream, TokenStream, TokenStream) {
    let none = quote!(::core::option::Option::None);
    let Codec::Value(value) = codec else {
        return (none.clone(), none.clone(), none);
    };
    if matches!(value.presence, Some(Presence::Flag(_, _))) {
        return (none.clone(), none.clone(), none);
    }
    let ty = value.stored_ty();
    let (element_size, inner_size) = match &value.element {
        Element::Plain => (
            quote!(<#ty as #rt::Decode>::FIXED_SIZE),
            quote!(<#ty as #rt::Decode>::ELEMENT_SIZE),
        ),
        Element::String(_, StringKind::FixedWidth(width)) => {
            let width = width_of(width);
            (quote!(::core::option::Option::Some(#width)), none.clone())
        }
        Element::Text(never, _) => match *never {},
        Element::String(..) => (none.clone(), none.clone()),
    };
    let zero = quote!(::core::option::Option::Some(0u64));
    match &value.repeat {
        None if matches!(value.element, Element::Plain) => {
            (quote!(<#ty as #rt::Decode>::ELEMENT_SIZE), zero, none)
        }
        None => (none.clone(), none.clone(), none),
        Some(Repeat::Prefix(_, prefix)) => (
            element_size,
            quote!(<#prefix as #rt::Decode>::FIXED_SIZE),
            inner_size,
        ),
        Some(Repeat::CountLine(never)) => match *never {},
        // Counted otherwise than by a prefix: the elements begin at once.
        Some(_) => (element_size, zero, inner_size),
    }
}

/// The `context` table of a type's layout.
pub(super) fn context_layout(rt: &Runtime, params: &[crate::attr::ContextParam]) -> TokenStream {
    let params = params.iter().map(|param| {
        let name = str_lit(&param.ident.to_string());
        let rust_type = str_lit(&type_text(&param.ty));
        quote!(#rt::ContextLayout { name: #name, rust_type: #rust_type })
    });
    quote!(&[#(#params),*])
}

pub(super) fn byte_order(rt: &Runtime, order: &ByteOrder) -> TokenStream {
    match order {
        ByteOrder::Big => quote!(#rt::ByteOrder::Big),
        ByteOrder::Little => quote!(#rt::ByteOrder::Little),
        ByteOrder::Param(param) => {
            let name = param.to_string();
            quote!(#rt::ByteOrder::Context(#name))
        }
    }
}

/// The type as a person writes it: `Vec<Bone>`, not `Vec < Bone >`.
pub(super) fn type_text(ty: &syn::Type) -> String {
    let spaced = quote!(#ty).to_string();
    let mut text = String::with_capacity(spaced.len());
    let mut chars = spaced.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let joins = |c: char| matches!(c, '<' | '>' | ':' | '[' | ']' | '&' | '(' | ')');
        if c == ' '
            && (text.chars().last().is_some_and(joins)
                || next.is_some_and(|n| joins(n) || n == ',' || n == ';'))
        {
            continue;
        }
        text.push(c);
    }
    text
}

/// How the field is stored, with the form it is in and, for an `Option`
/// present by the next tag, what it looks for.
fn framed_encoding(plan: &BinaryPlan) -> String {
    let encoding = encoding(&plan.codec);
    let encoding = match &plan.place.bits {
        Some(bits) => {
            let last = bits.shift + bits.width - 1;
            let range = match bits.width {
                1 => format!("bit {}", bits.shift),
                _ => format!("bits {last}..={}", bits.shift),
            };
            match bits.begins.as_ref().map(|word| &word.ty) {
                Some(Some(word)) => format!("{encoding}, {range} of a `{}` word", type_text(word)),
                _ => format!("{encoding}, {range} of the word"),
            }
        }
        None => encoding,
    };
    let encoding = match plan.place.form {
        Some(form_type) => format!("FORM `{}` holding {encoding}", tag_str(form_type)),
        None => encoding,
    };
    if !plan.by_next_tag() {
        return encoding;
    }
    let looked_for = match (plan.place.chunk, plan.place.form) {
        (Some(tag), _) => format!("is chunk `{}`", tag_str(tag)),
        (None, Some(form_type)) => format!("is FORM `{}`", tag_str(form_type)),
        (None, None) => "begins as the value does".to_owned(),
    };
    format!("{encoding}, present when the next child {looked_for}")
}

fn encoding(codec: &Codec<Binary>) -> String {
    match codec {
        Codec::Style(never) => match *never {},
        // Digits, or a byte string (`b"TAGL"`).
        Codec::Magic(constant) => format!("constant {}", constant.shown()),
        Codec::Count(users) => {
            let names: Vec<String> = users
                .iter()
                .map(|user| format!("`{}`", user.field))
                .collect();
            format!("element count of {}", names.join(", "))
        }
        Codec::With(_, path, pass) => {
            let codec = format!(
                "custom codec `{}`",
                quote!(#path).to_string().replace(' ', "")
            );
            match passed(pass) {
                Some(passed) => format!("{codec}, given {passed}"),
                None => codec,
            }
        }
        Codec::Padding((), PadLength::Align(multiple)) => format!(
            "padding to a multiple of {multiple} bytes from the start of the enclosing block: \
             zeros, kept as found otherwise"
        ),
        Codec::Padding((), PadLength::Bytes(bytes)) => {
            format!("{bytes} bytes of padding: zeros, kept as found otherwise")
        }
        Codec::Calc((), computed) => {
            let kept = if computed.keep {
                ", kept as found when a file holds another"
            } else {
                ""
            };
            format!(
                "{}, computed by the writer: `{}`{kept}",
                type_text(computed.stored),
                computed.expression.text
            )
        }
        Codec::Value(data) => data_encoding(data),
    }
}

fn data_encoding(data: &Value<Binary>) -> String {
    if let Some(offsets) = &data.offset {
        let from = match &offsets.base {
            OffsetBase::Block => "the start of the enclosing block".to_owned(),
            OffsetBase::File => "the start of the file".to_owned(),
            OffsetBase::Field(field) => format!("where `{field}` begins"),
        };
        let one = format!("{} offset from {from}", type_text(&offsets.ty));
        let value = type_text(offsets.value);
        return match &data.repeat {
            None => format!("{one}; the `{value}` lies there"),
            Some(Repeat::Prefix(_, prefix)) => format!(
                "{} count, then that many × {one}; each `{value}` lies at its offset",
                type_text(prefix)
            ),
            Some(_) => format!("{one} each; each `{value}` lies at its offset"),
        };
    }
    let element = match (&data.element, &data.map) {
        (Element::Text(never, _), _) => match *never {},
        (Element::Plain, None) => plain_text(data.element_ty),
        (Element::Plain, Some(map)) => {
            format!(
                "{} as `{}`",
                type_text(&map.stored),
                type_text(data.element_ty)
            )
        }
        (Element::String(_, StringKind::Pascal), _) => {
            "Pascal string (u8 length, then bytes)".to_owned()
        }
        (Element::String(_, StringKind::NullTerminated), _) => "null-terminated string".to_owned(),
        (Element::String(_, StringKind::FixedWidth(width)), _) => {
            format!(
                "fixed-width string of {} bytes, zero-padded",
                width_of(width)
            )
        }
        (Element::String(_, StringKind::Prefixed(count_ty)), _) => {
            format!("string ({} length, then bytes)", type_text(count_ty))
        }
    };
    let repeated = match &data.repeat {
        None => element,
        Some(Repeat::Prefix(_, prefix)) => {
            format!("{} count, then that many × {element}", type_text(prefix))
        }
        Some(Repeat::CountLine(never)) => match *never {},
        Some(Repeat::CountField(count) | Repeat::CountParam(count)) => {
            format!("`{count}` × {element}")
        }
        Some(Repeat::CountExpr(count)) => format!("`{}` × {element}", count.text),
        Some(Repeat::ToEnd) => format!("{element}, repeated to the end of the input"),
        Some(Repeat::Until(_, ends)) => format!(
            "{element}, repeated until one satisfies `{}` (that one included)",
            ends.text
        ),
    };
    let repeated = match &data.size {
        Some(size) => format!("{repeated}, in a block of `{}` bytes", size.text),
        None => repeated,
    };
    let repeated = match passed(&data.pass) {
        Some(passed) => format!("{repeated}, given {passed}"),
        None => repeated,
    };
    match &data.presence {
        None => repeated,
        Some(Presence::Flag(_, flag)) => format!(
            "{} flag (0 absent, 1 present), then {repeated}",
            type_text(flag)
        ),
        Some(Presence::If(condition, _)) => {
            format!("{repeated}, present when {}", condition.doc())
        }
        Some(Presence::NoneWord(never, _)) => match *never {},
        Some(Presence::NextTag(())) => repeated,
    }
}

/// How a value of type `ty` is stored: as its type says, or as the
/// runtime's wrappers (`Block`, `Transformed`) store what they hold.
fn plain_text(ty: &syn::Type) -> String {
    if let Some(value) = unwrap_generic(ty, "Block") {
        return format!("{}, then the rest of its block, kept", type_text(value));
    }
    if let Some([transform, value]) = type_args(ty, "Transformed") {
        return format!(
            "every byte left in the input, decoded by `{}`, holding {}",
            type_text(transform),
            type_text(value)
        );
    }
    type_text(ty)
}

/// `Wrapper<A, B>` -> `[A, B]` when the type's last path segment is
/// `wrapper`.
fn type_args<'t>(ty: &'t syn::Type, wrapper: &str) -> Option<[&'t syn::Type; 2]> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let last = path
        .path
        .segments
        .last()
        .filter(|last| last.ident == wrapper)?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let mut types = args.args.iter().filter_map(|arg| match arg {
        syn::GenericArgument::Type(ty) => Some(ty),
        _ => None,
    });
    Some([types.next()?, types.next()?])
}

/// `` `records` = `records_per_frame` ``: the context values a field passes.
pub(super) fn passed(pass: &[crate::check_context::Pass]) -> Option<String> {
    if pass.is_empty() {
        return None;
    }
    let values: Vec<String> = pass
        .iter()
        .map(|arg| format!("`{}` = `{}`", arg.param, arg.value))
        .collect();
    Some(values.join(", "))
}

fn count_source(codec: &Codec<Binary>) -> Option<String> {
    match codec {
        Codec::Value(Value {
            repeat: Some(Repeat::Prefix(_, prefix)),
            ..
        }) => Some(format!("{} prefix", type_text(prefix))),
        Codec::Value(Value {
            repeat: Some(Repeat::CountParam(count)),
            ..
        }) => Some(format!("context `{count}`")),
        Codec::Value(Value {
            repeat: Some(Repeat::CountField(count)),
            ..
        }) => Some(format!("field `{count}`")),
        Codec::Value(Value {
            repeat: Some(Repeat::CountExpr(count)),
            ..
        }) => Some(format!("`{}`", count.text)),
        Codec::Value(Value {
            repeat: Some(Repeat::ToEnd),
            ..
        }) => Some("the end of the input".to_owned()),
        Codec::Value(Value {
            repeat: Some(Repeat::Until(_, ends)),
            ..
        }) => Some(format!("until `{}`", ends.text)),
        _ => None,
    }
}
