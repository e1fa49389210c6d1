//! Layout metadata: what the derive knows about a type, for generated docs.

/// How a layout's numbers are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteOrder {
    Big,
    Little,
    /// A text layout: numbers are decimal tokens.
    Text,
    /// An enum of forms, or one of its variants: each form states its own.
    PerForm,
    /// The value of this context parameter (`endian = param`, of type
    /// [`Endian`](crate::Endian)): the type that holds it chooses.
    Context(&'static str),
}

/// A described type: its fields in file order.
#[derive(Debug, Clone, Copy)]
pub struct TypeLayout {
    pub name: &'static str,
    /// The type's doc comment: the format's conventions in prose.
    pub doc: &'static str,
    pub byte_order: ByteOrder,
    /// The IFF form type when the type is a `FORM` (e.g. `SKTM`).
    pub form: Option<&'static str>,
    /// The IFF chunk tag when the type is a whole chunk (e.g. `NAME`).
    pub chunk: Option<&'static str>,
    /// The context parameters the type needs from the type holding it.
    pub context: &'static [ContextLayout],
    /// For an enum: what chooses the variant, e.g. "a leading `u8` tag".
    pub chosen_by: Option<&'static str>,
    /// Fields in file order; for an enum, one per variant.
    pub fields: &'static [FieldLayout],
    pub min_size: u64,
    pub fixed_size: Option<u64>,
}

/// A context parameter: a value the type is given rather than reads.
#[derive(Debug, Clone, Copy)]
pub struct ContextLayout {
    pub name: &'static str,
    pub rust_type: &'static str,
}

/// One field as it appears in the file (or, for an enum, one variant).
#[derive(Debug, Clone, Copy)]
pub struct FieldLayout {
    pub name: &'static str,
    /// The Rust type as written in the struct.
    pub rust_type: &'static str,
    /// How the value is stored, e.g. "Pascal string (u8 length, then bytes)".
    pub encoding: &'static str,
    /// The byte order the field is read with.
    pub byte_order: ByteOrder,
    /// Where the element count of a collection comes from, if it is one.
    pub count: Option<&'static str>,
    /// The IFF chunk tag when the field is stored in a chunk of its own.
    pub chunk: Option<&'static str>,
    /// Offset from the start of the type, when every earlier field has a fixed size.
    pub offset: Option<u64>,
    /// For a list or an array: the size of each element, when every
    /// element has the same.
    pub element_size: Option<u64>,
    /// For a list or an array: where its first element starts, from the
    /// field's first byte (after a count stored before them), when fixed.
    pub elements_offset: Option<u64>,
    /// For a list of arrays: the size of each array's elements, when fixed.
    pub inner_element_size: Option<u64>,
    pub doc: &'static str,
    /// The layout of the schema type the field holds (the element type of a
    /// collection, option or array included); none for numbers and strings.
    /// A function, so that a type holding itself (in a collection) does not
    /// make its own layout constant depend on itself.
    pub nested: Option<fn() -> TypeLayout>,
}

/// Implemented by `#[derive(Schema)]`: the layout of the type's one
/// encoding, or, for a type with both (`#[schema(binary(little), text)]`),
/// its binary one.
pub trait Layout {
    const LAYOUT: TypeLayout;
}

/// Implemented by `#[derive(Schema)]` for every type with a text encoding:
/// its text layout. For a text type it is its [`Layout`]; for a type with
/// both encodings, [`Layout`] is the binary one and this the text one.
pub trait TextLayout {
    const TEXT_LAYOUT: TypeLayout;
}
