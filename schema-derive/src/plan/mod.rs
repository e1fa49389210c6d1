//! Validation and lowering, once for binary and text: each field's
//! attributes become one [`Codec`] (what the field is: a constant, a
//! count, a value maybe optional and repeated...), plus where the field
//! sits in its encoding ([`Binary`]: byte order and IFF framing; [`Text`]:
//! its line). A rule about counts, presence, conditions, checks, context or
//! strings is written here once; the back ends only read plans. A plan is
//! typed by its encoding ([`Medium`]): a variant only the other encoding
//! has holds [`Never`] there, so a back end has no arm for it. Every
//! mistake is collected, spanned.

mod bits;
pub mod choice;
pub mod expr;
pub mod forms;
pub mod reads;

use proc_macro2::Span;
use syn::{Generics, Ident, LitByteStr, LitInt, LitStr, Path, Type, Visibility};

use crate::ast::{is_named, unwrap_generic, Container, Errors, Field};
use crate::attr::{self, ByteOrder, Constant, ContextParam, Encoding, StringKind, TextForm};
use crate::check_context::{self, FieldCheck, Held, Pass};
use crate::condition::Condition;
use crate::messages;
use crate::suggest::did_you_mean;
use expr::{expression, is_calc, Expression, Role};

/// An encoding, as what its plans can hold: a variant only binary layouts
/// have carries `BinaryOnly`, one only text layouts have `TextOnly`, and
/// in the other encoding that type is [`Never`].
pub trait Medium: Sized {
    /// Whether this is the text encoding.
    const IS_TEXT: bool;
    type BinaryOnly: Clone;
    type TextOnly: Clone;
    /// What the whole type is in this encoding: [`BinaryShape`] or
    /// [`TextShape`].
    type Shape;
    /// The proof that `key` (a binary attribute) is in this encoding, or
    /// the error at `span` saying it is not.
    fn binary_only(span: Span, key: &str) -> syn::Result<Self::BinaryOnly>;
    /// The same for a text attribute.
    fn text_only(span: Span, key: &str) -> syn::Result<Self::TextOnly>;
    /// Whether `//` comments may stand among the type's values.
    fn among_comments(shape: &Self::Shape) -> bool;
    /// The byte order of a field so placed, in a binary layout.
    fn byte_order(place: &Self) -> Option<&ByteOrder>;
    /// The bits of a bit field so placed.
    fn bit_width(place: &Self) -> Option<u32>;
}

/// No value: the variants holding it cannot be built, and a `match` on
/// one is empty.
#[derive(Clone, Copy)]
pub enum Never {}

impl Medium for Binary {
    const IS_TEXT: bool = false;
    type BinaryOnly = ();
    type TextOnly = Never;
    type Shape = BinaryShape;

    fn binary_only(_: Span, _: &str) -> syn::Result<()> {
        Ok(())
    }

    fn text_only(span: Span, key: &str) -> syn::Result<Never> {
        Err(syn::Error::new(
            span,
            format!("`{key}` applies to text layouts (#[schema(text)])"),
        ))
    }

    fn among_comments(_: &BinaryShape) -> bool {
        false
    }

    fn byte_order(place: &Binary) -> Option<&ByteOrder> {
        Some(&place.byte_order)
    }

    fn bit_width(place: &Binary) -> Option<u32> {
        place.bits.as_ref().map(|bits| bits.width)
    }
}

impl Medium for Text {
    const IS_TEXT: bool = true;
    type BinaryOnly = Never;
    type TextOnly = ();
    type Shape = TextShape;

    fn binary_only(span: Span, key: &str) -> syn::Result<Never> {
        Err(syn::Error::new(span, format!("`{key}` is binary only")))
    }

    fn text_only(_: Span, _: &str) -> syn::Result<()> {
        Ok(())
    }

    fn among_comments(shape: &TextShape) -> bool {
        shape.comments
    }

    fn byte_order(_: &Text) -> Option<&ByteOrder> {
        None
    }

    fn bit_width(_: &Text) -> Option<u32> {
        None
    }
}

/// A struct as a back end sees it, in one encoding: the type's own rules
/// and its fields' plans. The back ends read this, never the attributes.
pub struct TypePlan<'a, M: Medium> {
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    /// Its type and const parameters, if any.
    pub generics: &'a Generics,
    /// `crate = "path"`: where the runtime is.
    pub krate: Option<&'a Path>,
    /// The type's doc comment.
    pub doc: &'a str,
    /// The context parameters this encoding of the type takes.
    pub params: &'a [ContextParam],
    pub fields: Vec<Plan<'a, M>>,
    /// `check = path`: a function the whole value must satisfy.
    pub check: Option<&'a Path>,
    pub shape: M::Shape,
}

pub type BinaryType<'a> = TypePlan<'a, Binary>;
pub type TextType<'a> = TypePlan<'a, Text>;

/// What a binary type is as a whole.
pub struct BinaryShape {
    /// The order of every field that states none of its own.
    pub byte_order: ByteOrder,
    pub framing: Framing,
    /// When the struct's first fields are bit fields with no word of their
    /// own: the bits they take of the word its holder begins (an enum
    /// chosen by the word's first bits, whose variant the struct is).
    pub tail: Option<u32>,
}

/// What frames a binary type's fields.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// Nothing: the fields one after another.
    None,
    /// An IFF chunk with this tag, the fields its payload.
    Chunk([u8; 4]),
    /// An IFF `FORM` of this type, the fields its children.
    Form([u8; 4]),
}

impl Framing {
    /// Whether the type is a chunk or a form.
    pub fn is_framed(self) -> bool {
        self != Framing::None
    }
}

/// What a text type is as a whole.
pub struct TextShape {
    /// `one_line`: the fields are the tokens of one line.
    pub one_line: bool,
    /// `comments`: `//` comments may stand anywhere from the record on.
    pub comments: bool,
}

/// A field as a back end sees it; `P` is where it sits in its encoding.
pub struct Plan<'a, P: Medium> {
    pub field: &'a Field<'a>,
    pub codec: Codec<'a, P>,
    /// `check = path(args)`: run on the value once it is read.
    pub check: Option<FieldCheck>,
    /// Whether a `calc` reads the number of bytes the field takes
    /// (`size_of(field)`), so both directions note where it begins and ends.
    pub measured: bool,
    /// Whether offsets count from where the field begins (`from = field`),
    /// so both directions note it.
    pub based: bool,
    pub place: P,
}

pub type BinaryPlan<'a> = Plan<'a, Binary>;
pub type TextPlan<'a> = Plan<'a, Text>;

/// Where a field of a binary layout sits.
pub struct Binary {
    pub byte_order: ByteOrder,
    /// The IFF chunk whose payload the field is (or is part of).
    pub chunk: Option<[u8; 4]>,
    /// Whether the field shares the chunk of the field before it: fields
    /// in a row naming one tag are one chunk.
    pub joins_chunk: bool,
    /// The IFF form whose children the field is.
    pub form: Option<[u8; 4]>,
    /// Whether errors inside the field name it. A chunk names itself by its
    /// tag instead, and so does a form nested in a form, by its type.
    pub named_in_paths: bool,
    /// A bit field: where in its word it lies.
    pub bits: Option<BitPlace>,
}

/// Where a bit field lies in its word.
#[derive(Clone)]
pub struct BitPlace {
    /// Its lowest bit, from the word's least significant.
    pub shift: u32,
    pub width: u32,
    /// On the first field of a word: the word.
    pub begins: Option<WordStart>,
}

/// A word of bit fields, as its first field begins it.
#[derive(Clone)]
pub struct WordStart {
    /// The word's type; none for the first fields of a struct, which
    /// continue the word its holder begins (see `BinaryShape::tail`).
    pub ty: Option<Box<Type>>,
}

/// Where a field of a text layout sits.
pub struct Text {
    /// `same_line`: the field's tokens continue the previous field's line.
    pub same_line: bool,
}

// One per field, made once per derive: its size costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum Codec<'a, M: Medium> {
    /// Text: the file's `TextStyle`, filled in by the reader, used by the writer.
    Style(M::TextOnly),
    /// A constant checked on read; the field's type is `Magic`.
    Magic(Magic<M>),
    /// A `Count<_>` field: stores the shared length of these collections.
    Count(Vec<CountUser>),
    /// Binary: the field's own `with` module reads and writes it, given these values.
    With(M::BinaryOnly, Path, Vec<Pass>),
    /// Binary: a stored value the writer computes (`calc = expr`); the
    /// field is a `Calc<T>`.
    Calc(M::BinaryOnly, Computed<'a>),
    /// Binary: padding (`align = N`, `pad = N`); the field is a `Padding`.
    Padding(M::BinaryOnly, attr::PadLength),
    Value(Value<'a, M>),
}

/// A `calc` field.
pub struct Computed<'a> {
    /// The type stored, `T` of the field's `Calc<T>`.
    pub stored: &'a Type,
    pub expression: Expression,
    /// `keep`: a value found that disagrees is kept, not an error.
    pub keep: bool,
}

impl Computed<'_> {
    /// Whether the writer knows the value only once the fields whose sizes
    /// it reads are written: it writes a placeholder, then the value over it.
    pub fn deferred(&self) -> bool {
        !self.expression.sizes.is_empty()
    }
}

/// Bytes as a Rust byte string, `b"TAGL"`, a byte that is not printable
/// ASCII as `\xNN`: what the runtime's `byte_string` writes in messages,
/// so the layout docs and the errors show a constant alike.
fn byte_string(bytes: &[u8]) -> String {
    let mut text = String::from("b\"");
    for &byte in bytes {
        match byte {
            b'"' => text.push_str("\\\""),
            b'\\' => text.push_str("\\\\"),
            b' '..=b'~' => text.push(char::from(byte)),
            _ => text.push_str(&format!("\\x{byte:02x}")),
        }
    }
    text.push('"');
    text
}

/// A constant: a suffixed integer or a byte string (binary), or words (text).
pub enum Magic<M: Medium> {
    Int(M::BinaryOnly, LitInt),
    Bytes(M::BinaryOnly, LitByteStr),
    Words(M::TextOnly, LitStr),
}

impl<M: Medium> Magic<M> {
    /// The constant as the layout docs show it: digits, or the bytes or
    /// words it stands for.
    pub fn shown(&self) -> String {
        match self {
            Magic::Int(_, int) => int.base10_digits().to_owned(),
            Magic::Bytes(_, bytes) => byte_string(&bytes.value()),
            Magic::Words(_, words) => words.value(),
        }
    }
}

impl Magic<Text> {
    /// The words a text constant stands for.
    pub fn words(&self) -> &LitStr {
        match self {
            Magic::Words((), words) => words,
            Magic::Int(never, _) | Magic::Bytes(never, _) => match *never {},
        }
    }
}

impl Magic<Binary> {
    /// The constant's width in bytes.
    pub fn size(&self) -> u64 {
        match self {
            Magic::Bytes(_, bytes) => bytes.value().len() as u64,
            Magic::Int(_, int) => match int.suffix() {
                "u8" | "i8" => 1,
                "u16" | "i16" => 2,
                "u32" | "i32" => 4,
                _ => 8,
            },
            Magic::Words(never, _) => match *never {},
        }
    }
}

/// A collection governed by a count field.
pub struct CountUser {
    pub field: Ident,
    pub optional: bool,
    /// The chunk (or form) the collection is stored in, which names it in errors.
    pub chunk: Option<[u8; 4]>,
}

/// A value, maybe optional, maybe repeated, of an element type.
pub struct Value<'a, M: Medium> {
    pub presence: Option<Presence<M>>,
    pub repeat: Option<Repeat<M>>,
    /// Text `flow`: the list's elements are tokens in any whitespace.
    pub flow: bool,
    pub element: Element<M>,
    pub element_ty: &'a Type,
    /// `map = S`, `try_map = S`: each element is stored as an `S`.
    pub map: Option<attr::Map>,
    /// Values passed to the element type's context.
    pub pass: Vec<Pass>,
    /// The function building that context, when values are passed.
    pub context: Option<Expression>,
    /// Binary `size = expr`: the value is read from a block of that many
    /// bytes, which it uses up.
    pub size: Option<Expression>,
    /// Binary `offset = T`: the value (a list's elements) lies at offsets
    /// stored here; `element_ty` is the `At<T>` keeping where.
    pub offset: Option<Offsets<'a>>,
}

/// Offsets stored in a field, to the values they point to.
pub struct Offsets<'a> {
    /// The integer type each offset is stored as.
    pub ty: Box<Type>,
    pub base: OffsetBase,
    /// The type of the values pointed to: `T` of the field's `At<T>`.
    pub value: &'a Type,
}

/// What offsets count from.
pub enum OffsetBase {
    /// The start of the enclosing block (chunk, form, `size` block) or file.
    Block,
    /// The start of the file.
    File,
    /// Where an earlier field begins.
    Field(Ident),
}

impl<M: Medium> Value<'_, M> {
    /// The type each element is read and written as: the stored type of
    /// a mapped one.
    pub fn stored_ty(&self) -> &Type {
        self.map.as_ref().map_or(self.element_ty, |map| &map.stored)
    }
}

/// When an `Option` is present.
pub enum Presence<M: Medium> {
    /// A flag of this integer type right before the value: 0 absent, 1 present.
    Flag(M::BinaryOnly, Box<Type>),
    /// When a condition over earlier fields and context parameters holds.
    If(Condition, Expression),
    /// In IFF, when the next child begins as the value does (an `Option`
    /// without a presence attribute).
    NextTag(M::BinaryOnly),
    /// Unless the file holds this word instead (`none = "*"`).
    NoneWord(M::TextOnly, LitStr),
}

/// How many elements a `Vec` holds.
pub enum Repeat<M: Medium> {
    /// A count of this integer type right before the elements.
    Prefix(M::BinaryOnly, Box<Type>),
    /// A decimal count line (or token) right before the elements.
    CountLine(M::TextOnly),
    /// The count an earlier `Count<_>` field of the type stores.
    CountField(Ident),
    /// The count a context parameter of the type holds.
    CountParam(Ident),
    /// The count an expression over earlier fields and context gives (an
    /// earlier field's value, or any Rust expression); the writer checks it.
    CountExpr(Expression),
    /// Elements until the input (file, enclosing chunk, text) ends.
    ToEnd,
    /// Binary: elements until one ends the list, that one included.
    Until(M::BinaryOnly, Expression),
}

/// How one element is written.
pub enum Element<M: Medium> {
    /// By the type's own impls: `Decode`/`Encode`, or text tokens or a
    /// nested record's lines.
    Plain,
    String(M::BinaryOnly, StringKind),
    Text(M::TextOnly, TextForm),
}

impl Plan<'_, Binary> {
    /// Whether the field is an `Option` present when the next child begins as it does.
    pub fn by_next_tag(&self) -> bool {
        matches!(
            self.codec,
            Codec::Value(Value {
                presence: Some(Presence::NextTag(())),
                ..
            })
        )
    }
}

impl Plan<'_, Text> {
    /// Whether the field is tokens within a line, so that the next field
    /// may continue its line.
    pub fn is_tokens(&self) -> bool {
        match &self.codec {
            Codec::Style(()) => false,
            Codec::With(never, ..) | Codec::Calc(never, _) | Codec::Padding(never, _) => {
                match *never {}
            }
            Codec::Magic(_) | Codec::Count(_) => true,
            Codec::Value(value) => value.is_tokens(),
        }
    }
}

impl Value<'_, Text> {
    /// Whether the value is written as tokens within a line (so it may
    /// share one): one value, always present or standing for none.
    pub fn is_tokens(&self) -> bool {
        self.repeat.is_none()
            && matches!(self.presence, None | Some(Presence::NoneWord(..)))
            && matches!(
                self.element,
                Element::Plain | Element::Text((), TextForm::Vector | TextForm::AngleBrackets)
            )
    }
}

/// The encoding a layout is lowered for.
#[derive(Clone, Copy)]
enum Layout {
    Binary,
    Text { one_line: bool },
}

/// The chunk a run of fields sharing one (or a single field) is read and
/// written in: none for a field present by the next tag, which looks for
/// its chunk itself.
pub fn shared_chunk(group: &[Plan<Binary>]) -> Option<[u8; 4]> {
    group
        .first()
        .filter(|plan| !plan.by_next_tag())
        .and_then(|plan| plan.place.chunk)
}

/// Lowers a binary layout.
pub fn binary<'a>(container: &'a Container<'a>) -> syn::Result<TypePlan<'a, Binary>> {
    let mut errors = Errors::default();
    for (span, key) in [
        (container.attrs.one_line, "one_line"),
        (container.attrs.comments, "comments"),
    ] {
        if let Some(span) = span {
            errors.push(syn::Error::new(
                span,
                format!("`{key}` applies to text layouts: add `text`"),
            ));
        }
    }
    let Some(container_order) = container.attrs.byte_order.as_ref() else {
        let mut error =
            syn::Error::new_spanned(container.ident, messages::no_byte_order(container.ident));
        if let Err(text_keys) = errors.finish() {
            error.combine(text_keys);
        }
        return Err(error);
    };
    for order in std::iter::once(container_order).chain(
        container
            .fields
            .iter()
            .filter_map(|field| field.attrs.byte_order.as_ref()),
    ) {
        errors.take(check_byte_order_param(container, order));
    }
    // A struct whose fields are chunks and forms (a form's, or a run of
    // them a variant wraps) names them by their tags in error paths.
    let iff = container.attrs.form.is_some()
        || container.attrs.chunk.is_some()
        || container
            .fields
            .iter()
            .any(|field| field.attrs.chunk.is_some() || field.attrs.form.is_some());
    let lowered = lower(container, Layout::Binary, &mut errors);
    // The fields a `calc` measures (`size_of(field)`).
    let measured: Vec<Ident> = lowered
        .iter()
        .filter_map(|(_, codec, _)| match codec {
            Codec::Calc((), computed) => Some(computed.expression.sizes.iter().cloned()),
            _ => None,
        })
        .flatten()
        .collect();
    errors.take(check_counts_of_deferred(&lowered));
    // The fields offsets count from (`from = field`).
    let bases: Vec<Ident> = lowered
        .iter()
        .filter_map(|(_, codec, _)| match codec {
            Codec::Value(Value {
                offset:
                    Some(Offsets {
                        base: OffsetBase::Field(field),
                        ..
                    }),
                ..
            }) => Some(field.clone()),
            _ => None,
        })
        .collect();
    let mut plans: Vec<Plan<Binary>> = lowered
        .into_iter()
        .filter_map(|(field, codec, check)| {
            let chunk = field.attrs.chunk.as_ref().map(|chunk| chunk.value);
            let form = field.attrs.form.as_ref().map(|form| form.value);
            if container.attrs.chunk.is_some() {
                if let Some(frame) = field.attrs.chunk.as_ref().or(field.attrs.form.as_ref()) {
                    errors.push(syn::Error::new(
                        frame.span,
                        "a chunk struct's fields are its payload: they hold no chunks or forms",
                    ));
                }
            }
            if container.attrs.form.is_some() && chunk.is_none() && form.is_none() {
                errors.take(check_form_child(field, &codec))?;
            }
            Some(Plan {
                field,
                codec,
                check,
                measured: measured.contains(field.ident),
                based: bases.contains(field.ident),
                place: Binary {
                    byte_order: field
                        .attrs
                        .byte_order
                        .as_ref()
                        .unwrap_or(container_order)
                        .value
                        .clone(),
                    chunk,
                    joins_chunk: false,
                    form,
                    named_in_paths: !iff,
                    bits: None,
                },
            })
        })
        .collect();
    let tail = errors.take(bits::place_bits(&mut plans)).flatten();
    if let (Some(_), Some(frame)) = (
        tail,
        container
            .attrs
            .form
            .as_ref()
            .or(container.attrs.chunk.as_ref()),
    ) {
        errors.push(syn::Error::new(
            frame.span,
            "a struct whose first fields continue its holder's word is read with that word, \
             not as a form or chunk of its own",
        ));
    }
    for index in 1..plans.len() {
        let (before, after) = plans.split_at_mut(index);
        let (Some(previous), Some(plan)) = (before.last(), after.first_mut()) else {
            continue;
        };
        if plan.place.chunk.is_none() || plan.place.chunk != previous.place.chunk {
            continue;
        }
        for shared in [&*plan, previous] {
            if needs_own_place(shared) {
                errors.push(syn::Error::new_spanned(
                    shared.field.ident,
                    "fields in a row naming one chunk are read and written inside it: a `calc`, \
                     a `size` block, offsets, or a field a `calc` measures or offsets count \
                     from, takes a chunk of its own",
                ));
            }
        }
        if plan.by_next_tag() || previous.by_next_tag() {
            let optional = if plan.by_next_tag() {
                plan.field.ident
            } else {
                previous.field.ident
            };
            errors.push(syn::Error::new_spanned(
                optional,
                "fields in a row naming one chunk share it, so none of them can be an `Option` \
                 present by the next tag: give it `flag` or `present_if`",
            ));
        }
        plan.place.joins_chunk = true;
    }
    if container.attrs.form.is_some() && !container.generics.params.is_empty() {
        errors.push(syn::Error::new_spanned(
            container.generics,
            "a form's children are checked to be IFF elements where the form is declared: a \
             form takes no generic parameters",
        ));
    }
    errors.finish()?;
    let framing = match (&container.attrs.form, &container.attrs.chunk) {
        (Some(form), _) => Framing::Form(form.value),
        (None, Some(chunk)) => Framing::Chunk(chunk.value),
        (None, None) => Framing::None,
    };
    Ok(type_plan(
        container,
        plans,
        BinaryShape {
            byte_order: container_order.value.clone(),
            framing,
            tail,
        },
    ))
}

/// The type's plan, once its fields are lowered.
fn type_plan<'a, M: Medium>(
    container: &'a Container<'a>,
    fields: Vec<Plan<'a, M>>,
    shape: M::Shape,
) -> TypePlan<'a, M> {
    TypePlan {
        ident: container.ident,
        vis: container.vis,
        generics: container.generics,
        krate: container.attrs.krate.as_ref().map(|krate| &krate.value),
        doc: &container.doc,
        params: check_context::params(container),
        fields,
        check: container
            .attrs
            .check
            .as_ref()
            .and_then(|check| match &check.value {
                attr::Check::Function { path, args } if args.is_empty() => Some(path),
                _ => None,
            }),
        shape,
    }
}

/// A list's count is checked before the list is written, so it cannot
/// read a `calc` the writer knows only once what follows it is written.
fn check_counts_of_deferred(
    lowered: &[(&Field, Codec<Binary>, Option<FieldCheck>)],
) -> syn::Result<()> {
    let deferred: Vec<&Ident> = lowered
        .iter()
        .filter_map(|(field, codec, _)| match codec {
            Codec::Calc((), computed) if computed.deferred() => Some(field.ident),
            _ => None,
        })
        .collect();
    let mut errors = Errors::default();
    for (_, codec, _) in lowered {
        let Codec::Value(Value {
            repeat: Some(Repeat::CountExpr(count)),
            ..
        }) = codec
        else {
            continue;
        };
        if let Some(name) = count.reads().find(|name| deferred.contains(&&name.ident)) {
            errors.push(syn::Error::new(
                count.span_of(&name.ident),
                format!(
                    "`{}` is computed from the sizes of what follows it, which the writer knows \
                     only once they are written: it cannot count a list",
                    name.ident
                ),
            ));
        }
    }
    errors.finish()
}

/// Whether a field needs where it begins and ends noted in the struct's
/// own scope: a `calc`, a `size` block, a field a `calc` measures.
fn needs_own_place(plan: &Plan<Binary>) -> bool {
    let own = matches!(&plan.codec, Codec::Value(value) if value.size.is_some() || value.offset.is_some());
    plan.measured || plan.based || own || matches!(plan.codec, Codec::Calc(..))
}

/// `endian = param` names one of the type's context parameters (whose type,
/// `Endian`, the compiler checks at the attribute).
fn check_byte_order_param(
    container: &Container,
    order: &crate::attr::Spanned<ByteOrder>,
) -> syn::Result<()> {
    match &order.value {
        ByteOrder::Param(param) if !check_context::is_param(container, param) => {
            Err(syn::Error::new(
                param.span(),
                format!(
                    "`endian` names a context parameter of type `Endian`, and `{param}` is not \
                     one: declare it with `#[schema(context({param}: Endian))]`"
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// Lowers a text layout (`#[schema(text)]`).
pub fn text<'a>(container: &'a Container<'a>) -> syn::Result<TypePlan<'a, Text>> {
    let mut errors = Errors::default();
    if let Some(order) = &container.attrs.byte_order {
        errors.push(syn::Error::new(
            order.span,
            messages::TEXT_HAS_NO_BYTE_ORDER,
        ));
    }
    if let Some(frame) = container
        .attrs
        .form
        .as_ref()
        .or(container.attrs.chunk.as_ref())
    {
        errors.push(syn::Error::new(
            frame.span,
            "IFF framing is binary: a text layout cannot be a `form` or a `chunk`",
        ));
    }
    let one_line = container.attrs.one_line.is_some();
    if let (true, Some(context)) = (one_line, &container.attrs.context) {
        errors.push(syn::Error::new(
            context.span,
            "a `one_line` record takes no context: its fields are tokens",
        ));
    }
    if let Some(comments) = container.attrs.comments {
        if one_line {
            errors.push(syn::Error::new(
                comments,
                "a `one_line` record is within its holder's line: put `comments` on the record \
                 holding it",
            ));
        }
        if let Some(comment) = container
            .fields
            .iter()
            .filter_map(|field| field.attrs.encoding.as_ref())
            .find(|encoding| matches!(encoding.value, Encoding::Text(TextForm::Comment)))
        {
            errors.push(syn::Error::new(
                comment.span,
                "a record with `comments` keeps every comment in its style: a `comment` field \
                 would take the first one as data",
            ));
        }
    }
    let plans: Vec<Plan<Text>> = lower(container, Layout::Text { one_line }, &mut errors)
        .into_iter()
        .map(|(field, codec, check)| Plan {
            field,
            codec,
            check,
            measured: false,
            based: false,
            place: Text {
                same_line: field.attrs.same_line.is_some(),
            },
        })
        .collect();
    for (index, plan) in plans.iter().enumerate() {
        if let Some(span) = plan.field.attrs.same_line {
            let previous = index.checked_sub(1).and_then(|index| plans.get(index));
            errors.take(check_same_line(span, one_line, plan, previous));
        }
    }
    let mut styles = container
        .fields
        .iter()
        .filter_map(|field| field.attrs.style);
    if let (Some(_), Some(second)) = (styles.next(), styles.next()) {
        errors.push(syn::Error::new(
            second,
            "a text layout takes only one `style` field",
        ));
    }
    errors.finish()?;
    let shape = TextShape {
        one_line,
        comments: container.attrs.comments.is_some(),
    };
    Ok(type_plan(container, plans, shape))
}

/// Each field's codec and check, for either encoding; fields with mistakes
/// are left out, their errors collected.
fn lower<'a, M: Medium>(
    container: &'a Container<'a>,
    layout: Layout,
    errors: &mut Errors,
) -> Vec<(&'a Field<'a>, Codec<'a, M>, Option<FieldCheck>)> {
    errors.take(check_context::check_params(container));
    if let Some(check) = &container.attrs.check {
        let alone = matches!(&check.value, attr::Check::Function { args, .. } if args.is_empty());
        if !alone {
            errors.push(syn::Error::new(
                check.span,
                "a type's `check` is given the whole value alone: `check = path`",
            ));
        }
    }
    let lowered: Vec<_> = container
        .fields
        .iter()
        .enumerate()
        .filter_map(|(index, field)| {
            let codec = errors.take(codec_of(container, index, field, layout))?;
            // A binary count's check runs once the count is read, before
            // the elements it counts.
            let checkable = matches!(
                (&codec, layout),
                (Codec::Value(Value { offset: None, .. }), _) | (Codec::Count(_), Layout::Binary)
            );
            let check = match &field.attrs.check {
                Some(check) if checkable => {
                    errors.take(check_context::resolve_check(container, index, &check.value))
                }
                Some(check) if matches!(layout, Layout::Binary) => {
                    errors.push(syn::Error::new(
                        check.span,
                        "`check` applies to a field holding a value or a count: not to a \
                         constant, a `calc`, a `with` field or values at offsets",
                    ));
                    None
                }
                Some(check) => {
                    errors.push(syn::Error::new(
                        check.span,
                        "`check` applies to a field holding a value: not to a style, a constant, \
                         a count or a `with` field",
                    ));
                    None
                }
                None => None,
            };
            Some((field, codec, check))
        })
        .collect();
    let codecs: Vec<_> = lowered
        .iter()
        .map(|(field, codec, _)| (*field, codec))
        .collect();
    errors.take(reads::check_read_fields(&codecs));
    lowered
}

fn codec_of<'a, M: Medium>(
    container: &'a Container<'a>,
    index: usize,
    field: &'a Field<'a>,
    layout: Layout,
) -> syn::Result<Codec<'a, M>> {
    let attrs = &field.attrs;
    reject_foreign_keys(field, layout)?;
    let pass = match &attrs.pass {
        Some(pass) => check_context::check_args(container, index, &pass.value)?,
        None => Vec::new(),
    };
    let encoding_span = attrs.encoding.as_ref().map(|a| a.span);
    let repeat_span = attrs.repeat.as_ref().map(|a| a.span);
    let presence_span = attrs.presence.as_ref().map(|a| a.span);
    let pass_span = attrs.pass.as_ref().map(|a| a.span);
    if let Some(style) = attrs.style {
        let others = [
            attrs.magic.as_ref().map(|m| m.span),
            encoding_span,
            repeat_span,
            pass_span,
            presence_span,
            attrs.same_line,
        ];
        no_other_attribute(&others, "a `style` field takes no other attribute")?;
        if let Layout::Text { one_line: true } = layout {
            return Err(syn::Error::new(
                style,
                "a `one_line` record cannot hold a `style` field",
            ));
        }
        if !is_named(field.ty, "TextStyle") {
            return Err(syn::Error::new(
                style,
                "a `style` field has the type `TextStyle`",
            ));
        }
        return Ok(Codec::Style(M::text_only(style, "style")?));
    }
    if let Some(magic) = &attrs.magic {
        let others = [
            encoding_span,
            repeat_span,
            presence_span,
            attrs.with.as_ref().map(|a| a.span),
            pass_span,
        ];
        no_other_attribute(&others, "a `magic` field takes no other attribute")?;
        if let Constant::Text(words) = &magic.value {
            if words.value().split_whitespace().next().is_none() {
                return Err(syn::Error::new(
                    magic.span,
                    "a text constant needs at least one word",
                ));
            }
        }
        let constant = match &magic.value {
            Constant::Int(int) => Magic::Int(M::binary_only(magic.span, "magic")?, int.clone()),
            Constant::Bytes(bytes) => {
                Magic::Bytes(M::binary_only(magic.span, "magic")?, bytes.clone())
            }
            Constant::Text(words) => {
                Magic::Words(M::text_only(magic.span, "magic")?, words.clone())
            }
        };
        return Ok(Codec::Magic(constant));
    }
    let padded = is_named(field.ty, "Padding");
    match (&attrs.padding, padded) {
        (Some(padding), true) => {
            alone(attrs, &[], "a `Padding` field is its bytes alone")?;
            return Ok(Codec::Padding(
                M::binary_only(padding.span, "align")?,
                padding.value,
            ));
        }
        (Some(padding), false) => {
            return Err(syn::Error::new(
                padding.span,
                "`align` and `pad` size a `Padding` field, which keeps a file's padding: put \
                 one before or after the field to pad",
            ));
        }
        (None, true) => {
            return Err(syn::Error::new_spanned(
                field.ident,
                format!(
                    "`{}` is a `Padding`: say how long with `align = N` (to a multiple of N \
                     bytes) or `pad = N` (N bytes)",
                    field.ident
                ),
            ));
        }
        (None, false) => {}
    }
    if let Some(calc) = &attrs.calc {
        alone(
            attrs,
            &[ValueKey::Calc],
            "a `calc` field is its stored value alone, computed by the writer",
        )?;
        let binary = M::binary_only(calc.span, "calc")?;
        let stored = unwrap_generic(field.ty, "Calc").ok_or_else(|| {
            syn::Error::new(
                calc.span,
                "a `calc` field holds a `Calc<T>`: `T` is the type stored, and the value holds \
                 what a file held only when it disagreed",
            )
        })?;
        let expression = expression(container, index, Role::Calc, &calc.value)?;
        return Ok(Codec::Calc(
            binary,
            Computed {
                stored,
                expression,
                keep: attrs.keep.is_some(),
            },
        ));
    }
    if let Some(keep) = attrs.keep {
        return Err(syn::Error::new(
            keep,
            "`keep` keeps a `calc` value found that disagrees: give the field `calc = ...`",
        ));
    }
    if is_calc(field.ty) {
        return Err(syn::Error::new_spanned(
            field.ident,
            format!(
                "`{}` is a `Calc<_>`, a value the writer computes: give its expression with \
                 `calc = ...`",
                field.ident
            ),
        ));
    }
    if let Some(with) = &attrs.with {
        alone(
            attrs,
            &[ValueKey::With, ValueKey::Pass],
            "a `with` field is encoded by its module alone",
        )?;
        check_context::constant_values(container, &pass)?;
        return Ok(Codec::With(
            M::binary_only(with.span, "with")?,
            with.value.clone(),
            pass,
        ));
    }
    if is_named(field.ty, "Count") {
        let users = count_users(container, field.ident);
        // A list naming it misspelt is the error, suggesting this field.
        if users.is_empty() && !check_context::misspelt_as(container, field.ident) {
            return Err(syn::Error::new_spanned(
                field.ident,
                format!(
                    "`{name}` is a `Count<_>`, which the writer fills in with the length of the \
                     lists that name it (`count = {name}`), and no list does",
                    name = field.ident
                ),
            ));
        }
        alone(attrs, &[], "a count field takes no other attribute")?;
        return Ok(Codec::Count(users));
    }

    let (presence, ty) = presence_of(container, field, layout)?;
    let (repeat, ty, element) = match string_prefix(field, ty, layout) {
        Some(count_ty) => (
            None,
            ty,
            Some(Encoding::String(StringKind::Prefixed(count_ty))),
        ),
        None => {
            let (repeat, ty) = repeat_of(container, index, field, ty, layout)?;
            let grouped = container.attrs.binary.is_some();
            let element = element_of(field, ty, &presence, &repeat, layout, grouped)?;
            (repeat, ty, element)
        }
    };
    if let Some(pass) = &attrs.pass {
        match (&element, layout) {
            (Some(Encoding::String(_)), _) => {
                return Err(syn::Error::new(pass.span, "a string takes no context"));
            }
            (Some(Encoding::Text(_)), _) | (_, Layout::Text { one_line: true }) => {
                return Err(syn::Error::new(
                    pass.span,
                    "only a nested record takes context",
                ));
            }
            _ => {}
        }
    }
    if let Some(span) = attrs.flow {
        if !matches!(repeat, Some(attr::Repeat::CountLine)) || element.is_some() || !pass.is_empty()
        {
            return Err(syn::Error::new(
                span,
                "`flow` applies to a `prefix` list of values written as tokens (numbers, \
                 words, `one_line` records), which take no context",
            ));
        }
    }
    // What the layout may hold is settled: the attributes become this
    // encoding's plan.
    let span_of = |span: Option<Span>| span.unwrap_or_else(|| field.ident.span());
    let presence = match presence {
        None => None,
        Some(presence) => Some(typed_presence::<M>(
            container,
            index,
            presence,
            span_of(presence_span),
        )?),
    };
    let repeat = match repeat {
        None => None,
        Some(repeat) => Some(typed_repeat::<M>(
            container,
            index,
            repeat,
            span_of(repeat_span),
        )?),
    };
    let size = match &attrs.size {
        Some(size) => {
            M::binary_only(size.span, "size")?;
            if let Some(presence) = presence_span {
                return Err(syn::Error::new(
                    presence,
                    "a `size` block is always there: it is not an `Option`",
                ));
            }
            let expression = expression(container, index, Role::Size, &size.value)?;
            let stored = expression.reads().any(|name| name.held != Held::Calc);
            if stored && !is_named(field.ty, "Block") {
                return Err(syn::Error::new(
                    size.span,
                    "a block whose size another stored value gives holds a `Block<T>`, which \
                     keeps what its value leaves of it (a size the writer computes, with \
                     `calc`, fits its value exactly)",
                ));
            }
            Some(expression)
        }
        None => None,
    };
    let context = match pass.is_empty() {
        true => None,
        false => {
            let role = if M::IS_TEXT {
                Role::TextContext
            } else {
                Role::Context
            };
            Some(expr::context_expression(container, index, role, &pass)?)
        }
    };
    if let Some(map) = &attrs.map {
        M::binary_only(map.span, "map")?;
    }
    if let (Some(map), true) = (&attrs.map, element.is_some()) {
        return Err(syn::Error::new(
            map.span,
            "`map` and `try_map` convert a value its type stores: not a string or a text form",
        ));
    }
    let element = match element {
        None => Element::Plain,
        Some(Encoding::String(kind)) => Element::String(
            M::binary_only(span_of(encoding_span.or(repeat_span)), "a string encoding")?,
            kind,
        ),
        Some(Encoding::Text(form)) => {
            Element::Text(M::text_only(span_of(encoding_span), form.key())?, form)
        }
    };
    let offset = offsets_of::<M>(container, index, field, ty, &presence, &repeat, &element)?;
    Ok(Codec::Value(Value {
        presence,
        repeat,
        flow: attrs.flow.is_some(),
        element,
        element_ty: ty,
        map: attrs.map.as_ref().map(|map| map.value.clone()),
        context,
        pass,
        size,
        offset,
    }))
}

/// The plan's presence; a condition's names are resolved here, once
/// (`presence_of` has checked each is an earlier field or a parameter).
fn typed_presence<M: Medium>(
    container: &Container,
    index: usize,
    presence: attr::Presence,
    span: Span,
) -> syn::Result<Presence<M>> {
    Ok(match presence {
        attr::Presence::Flag(ty) => Presence::Flag(M::binary_only(span, "flag")?, ty),
        attr::Presence::If(condition) => {
            let expression = expression(container, index, Role::Condition, &condition.expr)?;
            Presence::If(condition, expression)
        }
        attr::Presence::NextTag => {
            Presence::NextTag(M::binary_only(span, "an `Option` by the next tag")?)
        }
        attr::Presence::NoneWord(word) => Presence::NoneWord(M::text_only(span, "none")?, word),
    })
}

/// The plan's repeat; a count's name is resolved here, once: a `Count<_>`
/// field, a parameter, or any other value, an expression's
/// (`repeat_of` has checked a bare name is an earlier field or a
/// parameter).
fn typed_repeat<M: Medium>(
    container: &Container,
    index: usize,
    repeat: attr::Repeat,
    span: Span,
) -> syn::Result<Repeat<M>> {
    Ok(match repeat {
        attr::Repeat::Prefix(ty) => Repeat::Prefix(M::binary_only(span, "prefix = T")?, ty),
        attr::Repeat::CountLine => Repeat::CountLine(M::text_only(span, "prefix")?),
        attr::Repeat::Count(count) => match attr::bare_name(&count) {
            Some(name) if check_context::is_param(container, name) => {
                Repeat::CountParam(name.clone())
            }
            Some(name) if check_context::is_count_field(container, name) => {
                Repeat::CountField(name.clone())
            }
            _ => Repeat::CountExpr(expression(container, index, Role::Count, &count)?),
        },
        attr::Repeat::ToEnd => Repeat::ToEnd,
        attr::Repeat::Until(ends) => {
            let binary = M::binary_only(span, "until")?;
            let ends = expression(container, index, Role::Until, &ends)?;
            if let Some(name) = ends.reads().next() {
                return Err(syn::Error::new(
                    ends.span_of(&name.ident),
                    "`until` is a function of the element alone, such as \
                     `until = |byte: &u8| *byte == 0`: it reads no field or parameter",
                ));
            }
            Repeat::Until(binary, ends)
        }
    })
}

/// `offset = T`: the field's value (its elements) lies at offsets stored
/// here, each kept in an `At<T>`; `from` says what they count from.
fn offsets_of<'a, M: Medium>(
    container: &Container,
    index: usize,
    field: &Field,
    ty: &'a Type,
    presence: &Option<Presence<M>>,
    repeat: &Option<Repeat<M>>,
    element: &Element<M>,
) -> syn::Result<Option<Offsets<'a>>> {
    let attrs = &field.attrs;
    let Some(offset) = &attrs.offset else {
        if let Some(from) = &attrs.from {
            return Err(syn::Error::new(
                from.span,
                "`from` says what offsets count from: give the field `offset = T`",
            ));
        }
        if is_named(ty, "At") {
            return Err(syn::Error::new_spanned(
                field.ident,
                format!(
                    "`{}` holds an `At<_>`, a value stored at an offset: give the offset's type \
                     with `offset = u32`",
                    field.ident
                ),
            ));
        }
        return Ok(None);
    };
    M::binary_only(offset.span, "offset")?;
    let shape = |message: &str| Err(syn::Error::new(offset.span, message.to_owned()));
    let Some(value) = unwrap_generic(ty, "At") else {
        return shape(
            "an `offset` field holds an `At<T>` (a list of them, for a list of offsets), which \
             keeps where its value lay",
        );
    };
    if presence.is_some() {
        return shape("an `offset` field is always there: it is not an `Option`");
    }
    if let Some(Repeat::ToEnd | Repeat::Until(..)) = repeat {
        return shape(
            "a list of offsets has a count (`prefix = T` or `count = ...`): the values they point \
             to follow the list",
        );
    }
    if !matches!(element, Element::Plain) || attrs.map.is_some() || attrs.size.is_some() {
        return shape(
            "the values offsets point to are read by their own type: no string, `map` or `size`",
        );
    }
    let base = match &attrs.from {
        None => OffsetBase::Block,
        Some(from) if from.value == "file" => OffsetBase::File,
        Some(from) => {
            let field = container
                .fields
                .iter()
                .take(index)
                .find(|earlier| earlier.ident == &from.value);
            match field {
                Some(field) => OffsetBase::Field(field.ident.clone()),
                None => {
                    let earlier: Vec<String> = container
                        .fields
                        .iter()
                        .take(index)
                        .map(|field| field.ident.to_string())
                        .collect();
                    let names = earlier.iter().map(String::as_str).chain(["file"]);
                    let suggestion = did_you_mean(&from.value.to_string(), names);
                    return Err(syn::Error::new(
                        from.value.span(),
                        format!(
                            "`from` is `file` or an earlier field offsets count from; `{}` is \
                             neither{suggestion}",
                            from.value
                        ),
                    ));
                }
            }
        }
    };
    Ok(Some(Offsets {
        ty: offset.value.clone(),
        base,
        value,
    }))
}

/// `prefix = T` on a binary `RawString` with no other encoding: the
/// string's own length prefix, of integer type `T` (on a `Vec` it counts
/// the elements).
fn string_prefix(field: &Field, ty: &Type, layout: Layout) -> Option<Box<Type>> {
    match (&field.attrs.repeat, &field.attrs.encoding, layout) {
        (Some(repeat), None, Layout::Binary) if is_named(ty, "RawString") => match &repeat.value {
            attr::Repeat::Prefix(count_ty) => Some(count_ty.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// When the value is there, and its type once an `Option` is taken off.
fn presence_of<'a>(
    container: &'a Container<'a>,
    field: &'a Field<'a>,
    layout: Layout,
) -> syn::Result<(Option<attr::Presence>, &'a Type)> {
    let Some(presence) = &field.attrs.presence else {
        let option = unwrap_generic(field.ty, "Option");
        return match (layout, option) {
            // An `Option` with no presence attribute is present by the next
            // tag: an IFF element, or a value in a chunk or form of its own.
            (Layout::Binary, Some(_)) if container.attrs.chunk.is_some() => {
                Err(syn::Error::new_spanned(
                    field.ident,
                    format!(
                        "`{}` is an `Option` inside a chunk, where no tag follows to say whether \
                         it is there: give it `flag` or `present_if`",
                        field.ident
                    ),
                ))
            }
            (Layout::Binary, Some(inner)) => Ok((Some(attr::Presence::NextTag), inner)),
            _ => Ok((None, field.ty)),
        };
    };
    let key = match (&presence.value, layout) {
        (attr::Presence::Flag(_), Layout::Text { .. }) => {
            return Err(syn::Error::new(presence.span, "`flag` is binary only"));
        }
        (attr::Presence::Flag(_), Layout::Binary) => "flag",
        (attr::Presence::If(_), _) => "present_if",
        (attr::Presence::NoneWord(word), Layout::Text { .. }) => {
            let text = word.value();
            if text.is_empty() || text.contains(char::is_whitespace) || text.starts_with("//") {
                return Err(syn::Error::new(
                    word.span(),
                    "`none` takes one word, such as \"*\"",
                ));
            }
            "none"
        }
        // Set by lowering only; `none` in a binary layout is refused with
        // the other text keys.
        (attr::Presence::NoneWord(_) | attr::Presence::NextTag, _) => "none",
    };
    let ty = unwrap_generic(field.ty, "Option").ok_or_else(|| {
        syn::Error::new(presence.span, format!("`{key}` needs an `Option<_>` field"))
    })?;
    Ok((Some(presence.value.clone()), ty))
}

/// How many elements the value holds, and its element type once a `Vec`
/// is taken off.
fn repeat_of<'a>(
    container: &Container,
    index: usize,
    field: &Field,
    ty: &'a Type,
    layout: Layout,
) -> syn::Result<(Option<attr::Repeat>, &'a Type)> {
    let Some(repeat) = &field.attrs.repeat else {
        if let (Layout::Text { .. }, Some(_)) = (layout, unwrap_generic(ty, "Vec")) {
            return Err(syn::Error::new_spanned(
                field.ty,
                "a text collection needs a count: a count line before it (`prefix`), \
                 `count = field` or `to_end`",
            ));
        }
        return Ok((None, ty));
    };
    match (&repeat.value, layout) {
        (attr::Repeat::Count(count), _) => {
            if let Some(name) = attr::bare_name(count) {
                check_context::resolve(container, index, name)?;
            }
        }
        (attr::Repeat::ToEnd, _) if index + 1 < container.fields.len() => {
            let own_frame = field.attrs.chunk.is_some()
                || field.attrs.form.is_some()
                || field.attrs.size.is_some();
            if !own_frame {
                let input = match layout {
                    Layout::Binary => {
                        "input ends, so it is the last field (or fills a chunk or \
                                       form of its own)"
                    }
                    Layout::Text { .. } => "text ends, so it is the last field",
                };
                return Err(syn::Error::new(
                    repeat.span,
                    format!("a `to_end` list reads until the {input}"),
                ));
            }
        }
        (attr::Repeat::Prefix(_), Layout::Text { .. }) => {
            return Err(syn::Error::new(
                repeat.span,
                "a text count is a decimal number: write `prefix` without a type",
            ));
        }
        (attr::Repeat::CountLine, Layout::Binary) => {
            return Err(syn::Error::new(
                repeat.span,
                "a binary count prefix needs its integer type: `prefix = u32`",
            ));
        }
        (
            attr::Repeat::ToEnd
            | attr::Repeat::Prefix(_)
            | attr::Repeat::CountLine
            | attr::Repeat::Until(_),
            _,
        ) => {}
    }
    if let Layout::Text { one_line: true } = layout {
        return Err(syn::Error::new(
            repeat.span,
            "a list in a `one_line` record is not supported: its elements take lines",
        ));
    }
    let element_ty = unwrap_generic(ty, "Vec").ok_or_else(|| {
        let message = match layout {
            Layout::Binary => format!(
                "`{}` needs a collection field (`Vec<_>`)",
                repeat_key(&repeat.value)
            ),
            Layout::Text { .. } => "a list needs a collection field (`Vec<_>`)".to_owned(),
        };
        syn::Error::new(repeat.span, message)
    })?;
    Ok((Some(repeat.value.clone()), element_ty))
}

/// How one element is written, checked against the element's type.
/// `grouped`: the type gives its binary attributes in `binary(...)`.
fn element_of(
    field: &Field,
    ty: &Type,
    presence: &Option<attr::Presence>,
    repeat: &Option<attr::Repeat>,
    layout: Layout,
    grouped: bool,
) -> syn::Result<Option<Encoding>> {
    if let Some(attr::Presence::NoneWord(_)) = presence {
        if repeat.is_some() || field.attrs.encoding.is_some() {
            let span = field
                .attrs
                .presence
                .as_ref()
                .map_or_else(|| field.ident.span(), |presence| presence.span);
            return Err(syn::Error::new(
                span,
                "`none` stands for an absent value of tokens: not a list, a line, a comment, \
                 a vector or a `<name>`",
            ));
        }
    }
    let raw_string = is_named(ty, "RawString");
    let Some(encoding) = &field.attrs.encoding else {
        if let (Layout::Binary, true) = (layout, raw_string) {
            // A type written with `binary(...)` places its string encodings there.
            let message = if grouped {
                "a `RawString` needs a binary encoding: `binary(pascal)`, \
                 `binary(null_terminated)` or `binary(fixed_width = N)`"
            } else {
                "a `RawString` needs an encoding: `pascal`, `null_terminated` or `fixed_width = N`"
            };
            return Err(syn::Error::new_spanned(field.ty, message));
        }
        return Ok(None);
    };
    let one_line = matches!(layout, Layout::Text { one_line: true });
    match &encoding.value {
        Encoding::String(_) if !raw_string => Err(syn::Error::new(
            encoding.span,
            "string encodings apply to `RawString` values",
        )),
        Encoding::String(kind) => Ok(Some(Encoding::String(kind.clone()))),
        Encoding::Text(TextForm::Line | TextForm::Comment) if one_line => Err(syn::Error::new(
            encoding.span,
            "a `one_line` record cannot hold a whole line: its fields are tokens",
        )),
        Encoding::Text(TextForm::Line | TextForm::Comment) if !raw_string => Err(syn::Error::new(
            encoding.span,
            "`line` and `comment` apply to `RawString` values",
        )),
        Encoding::Text(TextForm::AngleBrackets) if !raw_string => Err(syn::Error::new(
            encoding.span,
            "`angle_brackets` applies to `RawString` values",
        )),
        Encoding::Text(form) => Ok(Some(Encoding::Text(*form))),
    }
}

/// Keys that have no meaning in the layout's encoding.
fn reject_foreign_keys(field: &Field, layout: Layout) -> syn::Result<()> {
    let attrs = &field.attrs;
    match layout {
        Layout::Binary => {
            let mut errors = Errors::default();
            let text_form = match &attrs.encoding {
                Some(encoding) => match &encoding.value {
                    Encoding::Text(form) => Some((encoding.span, form.key())),
                    Encoding::String(_) => None,
                },
                None => None,
            };
            let none = match &attrs.presence {
                Some(presence) if matches!(presence.value, attr::Presence::NoneWord(_)) => {
                    Some(presence.span)
                }
                _ => None,
            };
            let keys = [
                text_form,
                attrs.style.map(|span| (span, "style")),
                none.map(|span| (span, "none")),
                attrs.same_line.map(|span| (span, "same_line")),
                attrs.flow.map(|span| (span, "flow")),
            ];
            for (span, key) in keys.into_iter().flatten() {
                errors.push(syn::Error::new(
                    span,
                    format!("`{key}` applies to text layouts (#[schema(text)])"),
                ));
            }
            if let Some(magic) = &attrs.magic {
                if let Constant::Text(_) = magic.value {
                    errors.push(syn::Error::new(
                        magic.span,
                        "a string constant applies to text layouts; a binary constant is \
                         `b\"...\"` or a suffixed integer",
                    ));
                }
            }
            errors.finish()
        }
        Layout::Text { .. } => {
            if let Some(order) = &attrs.byte_order {
                return Err(syn::Error::new(
                    order.span,
                    "text fields have no byte order",
                ));
            }
            if let Some(encoding) = &attrs.encoding {
                if let Encoding::String(_) = encoding.value {
                    return Err(syn::Error::new(
                        encoding.span,
                        "string encodings are binary: in a text layout a `RawString` is one \
                         word, or a whole line with `line`",
                    ));
                }
            }
            if let Some(magic) = &attrs.magic {
                if !matches!(magic.value, Constant::Text(_)) {
                    return Err(syn::Error::new(
                        magic.span,
                        "a text constant is a string: `magic = \"version 300\"`",
                    ));
                }
            }
            if let Some(with) = &attrs.with {
                return Err(syn::Error::new(with.span, "`with` is binary only"));
            }
            if let Some(frame) = attrs.chunk.as_ref().or(attrs.form.as_ref()) {
                return Err(syn::Error::new(
                    frame.span,
                    "IFF chunks and forms are binary only",
                ));
            }
            Ok(())
        }
    }
}

/// A `same_line` field holds tokens and follows a field that does.
fn check_same_line(
    span: Span,
    one_line: bool,
    plan: &Plan<Text>,
    previous: Option<&Plan<Text>>,
) -> syn::Result<()> {
    if one_line {
        return Err(syn::Error::new(
            span,
            "every field of a `one_line` record is on the same line: remove `same_line`",
        ));
    }
    if !plan.is_tokens() {
        return Err(syn::Error::new(
            span,
            "`same_line` applies to values written as tokens: not to lists, whole lines, \
             comments or values present by `present_if`",
        ));
    }
    match previous {
        None => Err(syn::Error::new(
            span,
            "the first field has no line to continue: remove `same_line`",
        )),
        Some(previous) if !previous.is_tokens() => Err(syn::Error::new(
            span,
            format!(
                "`same_line` continues the previous field's line, but `{}` is not written as \
                 tokens",
                previous.field.ident
            ),
        )),
        Some(_) => Ok(()),
    }
}

/// Everything inside a FORM is a chunk or a nested form: a field without
/// `chunk` must be a form value (maybe a list of them, maybe absent), never
/// bytes of its own between the chunks.
fn check_form_child(field: &Field, codec: &Codec<Binary>) -> syn::Result<()> {
    let nested_form = matches!(
        codec,
        Codec::Value(Value {
            element: Element::Plain,
            repeat: None | Some(Repeat::CountField(_) | Repeat::CountParam(_) | Repeat::ToEnd),
            presence: None | Some(Presence::If(..) | Presence::NextTag(())),
            ..
        })
    );
    if nested_form {
        return Ok(());
    }
    Err(syn::Error::new(
        field.ident.span(),
        format!(
            "`{}` would put bytes between the chunks of a FORM: store it in a chunk with \
             `#[schema(chunk = \"TAG\")]`, or make its type a form",
            field.ident
        ),
    ))
}

/// The collections whose `count = ...` names this field.
fn count_users(container: &Container, count: &Ident) -> Vec<CountUser> {
    container
        .fields
        .iter()
        .filter(|field| {
            field
                .attrs
                .repeat
                .as_ref()
                .and_then(|repeat| repeat.value.count_name())
                == Some(count)
        })
        .map(|field| CountUser {
            field: field.ident.clone(),
            optional: field.attrs.presence.is_some()
                || unwrap_generic(field.ty, "Option").is_some(),
            chunk: field
                .attrs
                .chunk
                .as_ref()
                .or(field.attrs.form.as_ref())
                .map(|frame| frame.value),
        })
        .collect()
}

fn repeat_key(repeat: &attr::Repeat) -> &'static str {
    match repeat {
        attr::Repeat::Prefix(_) | attr::Repeat::CountLine => "prefix",
        attr::Repeat::Count(_) => "count",
        attr::Repeat::ToEnd => "to_end",
        attr::Repeat::Until(_) => "until",
    }
}

/// The first of the other attributes given, as the error `message`.
/// The keys that say how a value is stored.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ValueKey {
    Encoding,
    Repeat,
    Presence,
    Pass,
    Size,
    Map,
    With,
    Calc,
}

/// A field that is its own kind of value (padding, a `calc`, a `with`
/// module's, a count) takes no key saying how a value is stored but
/// those `own` to it: `message`, at the first other.
fn alone(attrs: &attr::Field, own: &[ValueKey], message: &str) -> syn::Result<()> {
    let keys = [
        (ValueKey::Encoding, attrs.encoding.as_ref().map(|a| a.span)),
        (ValueKey::Repeat, attrs.repeat.as_ref().map(|a| a.span)),
        (ValueKey::Presence, attrs.presence.as_ref().map(|a| a.span)),
        (ValueKey::Pass, attrs.pass.as_ref().map(|a| a.span)),
        (ValueKey::Size, attrs.size.as_ref().map(|a| a.span)),
        (ValueKey::Map, attrs.map.as_ref().map(|a| a.span)),
        (ValueKey::With, attrs.with.as_ref().map(|a| a.span)),
        (ValueKey::Calc, attrs.calc.as_ref().map(|a| a.span)),
    ];
    let other = keys
        .iter()
        .filter(|(key, _)| !own.contains(key))
        .find_map(|(_, span)| *span);
    match other {
        Some(span) => Err(syn::Error::new(span, message)),
        None => Ok(()),
    }
}

fn no_other_attribute(others: &[Option<Span>], message: &str) -> syn::Result<()> {
    match others.iter().flatten().next() {
        Some(span) => Err(syn::Error::new(*span, message)),
        None => Ok(()),
    }
}
